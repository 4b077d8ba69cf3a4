import { describe, expect, test } from "bun:test";
import { createPostgresReportSource } from "../../../adapters/postgres/report-source.ts";
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

describe("the report source", () => {
  test("payments recorded in [from, until), with their environment and their order's items", async () => {
    const product = await aProduct({ monthly: 1000 });
    await anOrder(product, "live", new Date("2026-03-01T00:00:00Z"));
    await anOrder(product, "live", new Date("2026-03-02T00:00:00Z"));
    const found = await createPostgresReportSource(sql()).paymentsBetween(
      new Date("2026-03-01T00:00:00Z"),
      new Date("2026-03-02T00:00:00Z"),
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ environment: "live", currency: "EUR", amount: 2400, tax: 400, kind: "initial" });
    expect(found[0]?.items).toEqual([
      { product_id: product, product_name: "Reported", due_today: 2000, amount: 2000, recurring: true },
    ]);
  });

  test("a subscription renews at its item's price, or after a change of interval at the product's price for it", async () => {
    const at = new Date("2026-06-01T00:00:00Z");
    const sells = await aProduct({ monthly: 1000, yearly: 9000 });
    const stopped = await aProduct({ monthly: 1000 });
    await anOrder(sells, "sandbox", new Date("2026-04-01T00:00:00Z"));
    const changed = await anOrder(sells, "sandbox", new Date("2026-04-02T00:00:00Z"));
    const unsold = await anOrder(stopped, "sandbox", new Date("2026-04-03T00:00:00Z"));
    await anOrder(sells, "sandbox", new Date("2026-07-01T00:00:00Z"));
    for (const { subscriptionId } of [changed, unsold]) {
      await sql()`update subscriptions set billing_interval = 'yearly' where id = ${subscriptionId}`;
    }
    const rows = (await createPostgresReportSource(sql()).subscriptionsAt(at))
      .filter((row) => row.created_at >= new Date("2026-04-01T00:00:00Z"))
      .sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
    // Kept monthly: the item's 2 × 1000. Changed to yearly: the product's yearly 9000 × 2. Changed to
    // an interval the product no longer sells: the item's own price and interval. Created after: absent.
    expect(rows.map((row) => [row.billing_interval, row.price, row.environment, row.currency])).toEqual([
      ["monthly", 2000, "sandbox", "EUR"],
      ["yearly", 18_000, "sandbox", "EUR"],
      ["monthly", 2000, "sandbox", "EUR"],
    ]);
  });
});
