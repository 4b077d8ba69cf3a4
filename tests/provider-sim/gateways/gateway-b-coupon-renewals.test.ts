import { afterEach, describe, expect, test } from "bun:test";
import { chargedFor, createCoupon, paidCouponSession, renew } from "./gateway-b-coupon-sessions.ts";
import { createGatewaySim, NOW_UNIX, startMarketplace } from "./harness.ts";

let marketplace: ReturnType<typeof startMarketplace>;
afterEach(() => marketplace?.stop());

function simWithMarketplace() {
  marketplace = startMarketplace();
  return createGatewaySim({ PROVIDER_SIM_MARKETPLACE_URL: marketplace.url });
}

const DAY = 86_400;
/** The sandbox's monthly periods from Jan 31: Feb 28, then the 28th of each month. */
const MONTH_2 = Date.UTC(2026, 2, 28, 10) / 1000;

type Sim = ReturnType<typeof simWithMarketplace>;

/** What the invoice says it took off, what it came to, what was paid and what the card was charged. */
async function billed(sim: Sim, invoice: { id: string; subtotal: number }) {
  const read = (await sim.b("GET", `/invoices/${invoice.id}`)).body;
  const off = read.total_discount_amounts.reduce((sum: number, entry: { amount: number }) => sum + entry.amount, 0);
  return [read.subtotal, off, read.total, read.amount_paid, await chargedFor(sim, invoice.id)];
}

describe("gateway_b: a coupon redeemed at a subscription checkout is the subscription's discount", () => {
  test("5.00 off for 2 months: the first two invoices are discounted, the third and fourth are at full price", async () => {
    const sim = simWithMarketplace();
    await createCoupon(sim, {
      id: "P5",
      amount_off: 500,
      currency: "usd",
      duration: "repeating",
      duration_in_months: 2,
    });
    const session = await paidCouponSession(sim, [{ amount: 2900, every: "month" }], "P5");
    expect(session.amount_total).toBe(2400);
    const subscription = (await sim.b("GET", `/subscriptions/${session.subscription}`)).body;
    expect(subscription.discounts).toEqual([expect.stringMatching(/^di_/)]);
    const discountId = subscription.discounts[0];
    const expanded = (await sim.b("GET", `/subscriptions/${session.subscription}?expand[]=discounts`)).body;
    expect(expanded.discounts[0]).toMatchObject({
      id: discountId,
      object: "discount",
      source: { type: "coupon", coupon: { id: "P5", amount_off: 500, times_redeemed: 1 } },
      customer: session.customer,
      subscription: session.subscription,
      checkout_session: session.id,
      start: NOW_UNIX,
      end: MONTH_2,
      invoice: null,
      invoice_item: null,
      promotion_code: null,
    });

    const first = (await sim.b("GET", `/invoices/${session.invoice}`)).body;
    expect(first).toMatchObject({
      discounts: [discountId],
      total_discount_amounts: [{ amount: 500, discount: discountId }],
      lines: { data: [{ amount: 2900, discount_amounts: [{ amount: 500, discount: discountId }] }] },
    });
    expect(await billed(sim, first)).toEqual([2900, 500, 2400, 2400, 2400]);

    const second = await renew(sim, session.subscription);
    expect(second.invoice.discounts).toEqual([discountId]);
    expect(await billed(sim, second.invoice)).toEqual([2900, 500, 2400, 2400, 2400]);
    expect(second.subscription.discounts).toEqual([discountId]);

    // The clock passes two more period ends (Mar 28 and Apr 28).
    await sim.plain("POST", "/__sim/clock", { body: { advance_seconds: 90 * DAY } });
    await marketplace.settle();
    const paid = marketplace.ofType("invoice.paid").map((webhook) => webhook.body.data.object);
    expect(paid.map((invoice) => [invoice.total, invoice.total_discount_amounts, invoice.discounts])).toEqual([
      [2400, [{ amount: 500, discount: discountId }], [discountId]],
      [2400, [{ amount: 500, discount: discountId }], [discountId]],
      [2900, [], []],
      [2900, [], []],
    ]);
    for (const invoice of paid.slice(2)) expect(await billed(sim, invoice)).toEqual([2900, 0, 2900, 2900, 2900]);

    const created = marketplace.ofType("customer.subscription.created")[0]?.body.data.object;
    expect(created.discounts).toEqual([discountId]);
    const ended = marketplace
      .ofType("customer.subscription.updated")
      .find((webhook) => webhook.body.data.previous_attributes.discounts);
    expect(ended?.body.data.object.discounts).toEqual([]);
    expect(ended?.body.data.previous_attributes.discounts).toEqual([discountId]);
    expect((await sim.b("GET", `/subscriptions/${session.subscription}`)).body.discounts).toEqual([]);
  });

  test("once: the first invoice only", async () => {
    const sim = simWithMarketplace();
    await createCoupon(sim, { id: "FIRST", percent_off: "50", duration: "once" });
    const session = await paidCouponSession(sim, [{ amount: 2900, every: "month" }], "FIRST");
    const first = (await sim.b("GET", `/invoices/${session.invoice}`)).body;
    expect(await billed(sim, first)).toEqual([2900, 1450, 1450, 1450, 1450]);
    const renewed = await renew(sim, session.subscription);
    expect(renewed.invoice).toMatchObject({ discounts: [], total_discount_amounts: [] });
    expect(await billed(sim, renewed.invoice)).toEqual([2900, 0, 2900, 2900, 2900]);
  });

  test("forever: every invoice, the first one's discount shared across its lines", async () => {
    const sim = simWithMarketplace();
    await createCoupon(sim, { id: "ALWAYS", percent_off: "12.5", duration: "forever" });
    const session = await paidCouponSession(
      sim,
      [
        { amount: 2900, every: "month", name: "POS" },
        { amount: 500, name: "Setup" },
      ],
      "ALWAYS",
    );
    expect(session).toMatchObject({ amount_subtotal: 3400, total_details: { amount_discount: 425 } });
    const first = (await sim.b("GET", `/invoices/${session.invoice}`)).body;
    // 425 across 2900 and 500 is 362.5 and 62.5: the tie's cent goes to the earlier line.
    expect(
      first.lines.data.map((line: { discount_amounts: { amount: number }[] }) => line.discount_amounts[0]?.amount),
    ).toEqual([363, 62]);
    expect(await billed(sim, first)).toEqual([3400, 425, 2975, 2975, 2975]);
    for (let renewal = 0; renewal < 3; renewal += 1) {
      const renewed = await renew(sim, session.subscription);
      expect(await billed(sim, renewed.invoice)).toEqual([2900, 363, 2537, 2537, 2537]);
    }
  });

  test("repeating for 2 months on a yearly plan: the first invoice only", async () => {
    const sim = simWithMarketplace();
    await createCoupon(sim, { id: "Y2", percent_off: "20", duration: "repeating", duration_in_months: 2 });
    const session = await paidCouponSession(sim, [{ amount: 29000, every: "year" }], "Y2");
    expect(await billed(sim, (await sim.b("GET", `/invoices/${session.invoice}`)).body)).toEqual([
      29000, 5800, 23200, 23200, 23200,
    ]);
    const renewed = await renew(sim, session.subscription);
    expect(await billed(sim, renewed.invoice)).toEqual([29000, 0, 29000, 29000, 29000]);
    expect(renewed.subscription.discounts).toEqual([]);
  });

  test("a subscription without a coupon has no discounts anywhere", async () => {
    const sim = simWithMarketplace();
    const session = await paidCouponSession(sim, [{ amount: 2900, every: "month" }]);
    const invoice = (await sim.b("GET", `/invoices/${session.invoice}`)).body;
    expect(invoice).toMatchObject({ discounts: [], total_discount_amounts: [], total_pretax_credit_amounts: [] });
    expect((await sim.b("GET", `/subscriptions/${session.subscription}`)).body.discounts).toEqual([]);
  });
});
