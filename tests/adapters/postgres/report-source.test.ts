import { describe, expect, test } from "bun:test";
import { createPostgresReportSource } from "../../../adapters/postgres/report-source.ts";
import { makeReports } from "../../../application/reports/reports.ts";
import type { LedgerPayment, OneProductRevenue } from "../../../domain/reports/product-shares.ts";
import { reportRange } from "../../../domain/reports/report-range.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();
const sql = () => db.current.sql;

async function aProduct(prices: { monthly?: number; yearly?: number }) {
  const [product] = await sql()<{ id: string }[]>`
    insert into products (name, slug, status, delivery_model, fulfillment_driver, enabled_payment_gateways,
                          default_payment_gateway, is_recurring)
    values ('Reported', ${`reported-${crypto.randomUUID()}`}, 'published', 'saas', 'multitenant_saas',
            '{gateway_a}', 'gateway_a', true) returning id`;
  const id = product?.id ?? "";
  let position = 0;
  for (const [interval, price] of Object.entries(prices)) {
    await sql()`
      insert into product_pricing_mappings (product_id, payment_type, billing_interval, price, position)
      values (${id}, 'subscription', ${interval}, ${price}, ${position++})`;
  }
  return id;
}

/** An order of one subscription item (monthly, 2 seats at 1000) in `environment`. */
async function anOrder(productId: string, environment: "sandbox" | "live", createdAt = new Date()) {
  const [user] = await sql()<{ id: string }[]>`
    insert into users (email, name, role, password_hash)
    values (${`report-${crypto.randomUUID()}@example.test`}, 'R', 'customer', 'x') returning id`;
  const [order] = await sql()<{ id: string }[]>`
    insert into orders (customer_id, status, currency, subtotal, total, due_today, payment_gateway,
                        gateway_environment, metadata)
    values (${user?.id ?? ""}, 'paid', 'EUR', 2000, 2000, 2000, 'gateway_a', ${environment}, '{}') returning id`;
  const [item] = await sql()<{ id: string }[]>`
    insert into order_items (order_id, position, product_id, product_name, variant, payment_type, billing_interval,
                             unit_price, quantity, amount, due_today, delivery_model, fulfillment_driver)
    values (${order?.id ?? ""}, 0, ${productId}, 'Reported', 'monthly', 'subscription', 'monthly', 1000, 2, 2000, 2000,
            'saas', 'multitenant_saas') returning id`;
  await sql()`
    insert into payments (order_id, gateway, payment_id, amount, tax, currency, created_at)
    values (${order?.id ?? ""}, 'gateway_a', ${`txn_${crypto.randomUUID()}`}, 2400, 400, 'EUR', ${createdAt})`;
  const [subscription] = await sql()<{ id: string }[]>`
    insert into subscriptions (order_id, order_item_id, customer_id, product_id, gateway, status, billing_interval,
                               created_at, updated_at)
    values (${order?.id ?? ""}, ${item?.id ?? ""}, ${user?.id ?? ""}, ${productId}, 'gateway_a', 'active', 'monthly',
            ${createdAt}, ${createdAt}) returning id`;
  return { orderId: order?.id ?? "", subscriptionId: subscription?.id ?? "" };
}

/** Subscription `id` re-timed: created, last changed, cancelled and trial end, each `days` from `at`. */
async function retime(
  id: string,
  at: Date,
  days: { created: number; updated: number; cancelled?: number; trialEnds?: number },
  status: string,
) {
  const day = (n: number | undefined) => (n === undefined ? null : new Date(at.getTime() + n * 86_400_000));
  await sql()`
    update subscriptions set status = ${status}, created_at = ${day(days.created)}, updated_at = ${day(days.updated)},
                             cancelled_at = ${day(days.cancelled)}, trial_ends_at = ${day(days.trialEnds)}
    where id = ${id}`;
}

/**
 * `count` payments of one two-product order (due 3 to 1), or of a one-product order, spread over 365
 * days from `start`, to the microsecond, three at each instant.
 */
async function manyPayments(count: number, start: Date, products: 1 | 2 = 2) {
  const product = await aProduct({ monthly: 1000 });
  const { orderId } = await anOrder(product, "live", start);
  if (products === 2)
    await sql()`
    insert into order_items (order_id, position, product_id, product_name, variant, payment_type, billing_interval,
                             unit_price, quantity, amount, due_today, delivery_model, fulfillment_driver)
    values (${orderId}, 1, ${await aProduct({})}, 'Extra', 'regular', 'one_time', null, 666, 1, 666, 666,
            'saas', 'multitenant_saas')`;
  await sql()`
    insert into payments (order_id, gateway, payment_id, amount, tax, refunded_amount, charged_back_amount, currency,
                          created_at)
    select ${orderId}, case when g % 3 = 0 then 'gateway_b' else 'gateway_a' end, 'txn_' || gen_random_uuid(),
           1000 + g % 997, g % 101, g % 5, g % 7, 'EUR',
           ${start}::timestamptz + (g / 3 % 365) * interval '1 day' + (g / 3 % 86400) * interval '1 second'
             + (g / 3 % 1000) * interval '1 microsecond'
    from generate_series(1, ${count}) g`;
  const [sums] = await sql()<{ gross: number; refunds: number }[]>`
    select sum(p.amount)::float8 as gross, sum(p.refunded_amount)::float8 as refunds
    from payments p where p.order_id = ${orderId} and p.created_at >= ${start}`;
  return { orderId, gross: sums?.gross ?? 0, refunds: sums?.refunds ?? 0 };
}

describe("the report source", () => {
  test("sums payments per environment, currency, gateway and UTC interval; weeks from Monday", async () => {
    const product = await aProduct({ monthly: 1000 });
    // Sunday 2026-03-01 23:59:59 UTC (Monday already east of UTC), then Monday 2026-03-02 00:00 UTC.
    await anOrder(product, "live", new Date("2026-03-01T23:59:59Z"));
    await anOrder(product, "live", new Date("2026-03-02T00:00:00Z"));
    await anOrder(product, "sandbox", new Date("2026-03-02T12:00:00Z"));
    await anOrder(product, "live", new Date("2026-03-09T00:00:00Z"));
    const range = reportRange({ from: "2026-03-01", to: "2026-03-08", interval: "week" }, new Date());
    const seen: LedgerPayment[] = [];
    const whole: OneProductRevenue[] = [];
    const buckets = await createPostgresReportSource(sql()).revenueBetween(range, {
      add: (payment) => seen.push(payment),
      addWhole: (sums) => whole.push(sums),
    });
    const rows = buckets
      .map((b) => [b.environment, b.gateway, b.start.toISOString().slice(0, 10), b.payments, b.gross, b.tax])
      .sort((a, b) => String(a).localeCompare(String(b)));
    expect(rows).toEqual([
      ["live", "gateway_a", "2026-02-23", 1, 2400, 400],
      ["live", "gateway_a", "2026-03-02", 1, 2400, 400],
      ["sandbox", "gateway_a", "2026-03-02", 1, 2400, 400],
    ]);
    // One-product orders are summed per product by the database; none is handed over one by one.
    expect(seen).toEqual([]);
    expect(whole.sort((a, b) => a.environment.localeCompare(b.environment))).toEqual([
      {
        environment: "live",
        currency: "EUR",
        product_id: product,
        product_name: "Reported",
        payments: 2,
        gross: 4800,
        discounts: 0,
        tax: 800,
        refunds: 0,
        charged_back: 0,
      },
      {
        environment: "sandbox",
        currency: "EUR",
        product_id: product,
        product_name: "Reported",
        payments: 1,
        gross: 2400,
        discounts: 0,
        tax: 400,
        refunds: 0,
        charged_back: 0,
      },
    ]);
  });

  test("a payment of an order of several products is handed over with its order's items", async () => {
    await manyPayments(1, new Date("2026-04-01T00:00:00Z"));
    const range = reportRange({ from: "2026-04-01", to: "2026-04-02", interval: "day" }, new Date());
    const seen: LedgerPayment[] = [];
    await createPostgresReportSource(sql()).revenueBetween(range, {
      add: (payment) => seen.push(payment),
      addWhole: () => {},
    });
    expect(seen).toHaveLength(2); // the order's first payment and one more
    expect(seen[0]?.items.map((item) => [item.product_name, item.due_today, item.recurring])).toEqual([
      ["Reported", 2000, true],
      ["Extra", 666, false],
    ]);
  });

  test("hands over a long range's payments in batches, each once, even at the same instant", async () => {
    const start = new Date("2003-01-01T00:00:00Z");
    const { gross } = await manyPayments(4500, start);
    const range = reportRange({ from: "2003-01-01", to: "2004-01-01", interval: "month" }, new Date());
    let count = 0;
    let handed = 0;
    const buckets = await createPostgresReportSource(sql()).revenueBetween(range, {
      add: (payment) => {
        count += 1;
        handed += payment.amount;
      },
      addWhole: () => {
        throw new Error("an order of two products is no one-product sum");
      },
    });
    expect(count).toBe(4501); // with the order's first payment, across three pages of 2,000
    expect(handed).toBe(gross);
    expect(buckets.reduce((sum, bucket) => sum + bucket.gross, 0)).toBe(gross);
  });

  test.each([
    [2, "2001"],
    [1, "1999"],
  ] as const)(
    "100,000 payments of %i-product orders are reported without holding up the event loop, the products adding up",
    async (products, year) => {
      const start = new Date(`${year}-01-01T00:00:00Z`);
      const { gross, refunds } = await manyPayments(100_000, start, products);
      const reports = makeReports({ source: createPostgresReportSource(sql()), clock: () => new Date() });
      // Other requests wait for the event loop: the longest gap between timer ticks is what they would wait.
      let longestGap = 0;
      let tick = performance.now();
      const timer = setInterval(() => {
        longestGap = Math.max(longestGap, performance.now() - tick);
        tick = performance.now();
      }, 5);
      const began = performance.now();
      const report = await reports.revenueReport({ from: `${year}-01-01`, to: `${year}-12-31`, interval: "day" });
      const took = performance.now() - began;
      clearInterval(timer);
      console.info(
        `100,000 payments of ${products}-product orders by day over 365 days: ${Math.round(took)} ms, longest event loop gap ${Math.round(longestGap)} ms`,
      );
      const [ledger] = report.ledgers;
      expect(ledger?.total).toMatchObject({ payments: 100_001, gross, refunds });
      expect(ledger?.by_product.reduce((sum, product) => sum + product.gross, 0)).toBe(gross);
      expect(ledger?.by_product.every((product) => product.net >= 0)).toBe(true);
      expect(longestGap).toBeLessThan(500);
    },
    120_000,
  );

  test("statuses at a moment: read when the record has not changed since, inferred otherwise", async () => {
    const at = new Date("2026-09-01T00:00:00Z");
    await sql()`delete from subscriptions`;
    const product = await aProduct({ monthly: 1000 });
    const order = async (days: Parameters<typeof retime>[2], status: string) => {
      const { subscriptionId } = await anOrder(product, "live", at);
      await retime(subscriptionId, at, days, status);
    };
    await order({ created: 1, updated: 1 }, "active"); // not yet created: absent
    await order({ created: -100, updated: -1 }, "past_due"); // read: unchanged since
    await order({ created: -100, updated: 2, cancelled: 2 }, "cancelled"); // inferred active, paying before
    await order({ created: -10, updated: 5, trialEnds: 1 }, "active"); // inferred trialing, new
    await order({ created: -100, updated: -5, cancelled: -5 }, "cancelled"); // churned in the window
    await order({ created: -40, updated: -20, trialEnds: -20 }, "active"); // trial ended in the window: new
    const groups = await createPostgresReportSource(sql()).subscriptionGroups(
      at,
      new Date(at.getTime() - 30 * 86_400_000),
    );
    const rows = groups
      .filter((group) => group.environment === "live")
      .map((g) => [g.status, g.inferred, g.paid_before, g.subscriptions, g.price])
      .sort((a, b) => String(a).localeCompare(String(b)));
    expect(rows).toEqual([
      ["active", false, false, 1, 2000],
      ["active", true, true, 1, 2000],
      ["cancelled", false, true, 1, 2000],
      ["past_due", false, true, 1, 2000],
      ["trialing", true, false, 1, 2000],
    ]);
  });

  test("a subscription renews at its item's price, or after a change of interval at the product's price for it", async () => {
    const at = new Date("2026-06-01T00:00:00Z");
    await sql()`delete from subscriptions`;
    const sells = await aProduct({ monthly: 1000, yearly: 9000 });
    const stopped = await aProduct({ monthly: 1000 });
    await anOrder(sells, "sandbox", new Date("2026-04-01T00:00:00Z"));
    const changed = await anOrder(sells, "sandbox", new Date("2026-04-02T00:00:00Z"));
    const unsold = await anOrder(stopped, "sandbox", new Date("2026-04-03T00:00:00Z"));
    await anOrder(sells, "sandbox", new Date("2026-07-01T00:00:00Z"));
    for (const { subscriptionId } of [changed, unsold]) {
      await sql()`update subscriptions set billing_interval = 'yearly' where id = ${subscriptionId}`;
    }
    const rows = (await createPostgresReportSource(sql()).subscriptionGroups(at, new Date("2026-05-02T00:00:00Z")))
      .filter((row) => row.environment === "sandbox")
      .map((row) => [row.billing_interval, row.subscriptions, row.price, row.currency])
      .sort((a, b) => String(a).localeCompare(String(b)));
    // Kept monthly: the item's 2 × 1000. Changed to yearly: the product's yearly 9000 × 2. Changed to
    // an interval the product no longer sells: the item's own price and interval. Created after: absent.
    expect(rows).toEqual([
      ["monthly", 2, 4000, "EUR"],
      ["yearly", 1, 18_000, "EUR"],
    ]);
  });
});
