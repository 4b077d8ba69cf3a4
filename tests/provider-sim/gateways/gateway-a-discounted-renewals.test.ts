import { afterEach, describe, expect, test } from "bun:test";
import { createGatewaySim, type GatewaySim, startMarketplace } from "./harness.ts";

let marketplace: ReturnType<typeof startMarketplace>;
afterEach(() => marketplace?.stop());

function simWithMarketplace() {
  marketplace = startMarketplace();
  return createGatewaySim({ PROVIDER_SIM_MARKETPLACE_URL: marketplace.url });
}

/** A monthly subscription of 2900 a month paid through the hosted checkout with `discount` applied. */
async function discountedSubscription(sim: GatewaySim, discount: Record<string, unknown>, trialDays?: number) {
  const created = await sim.a("POST", "/discounts", { body: { description: "Partner", ...discount } });
  const transaction = await sim.a("POST", "/transactions", {
    body: {
      items: [
        {
          price: {
            description: "Monthly",
            product: { name: "POS Suite", tax_category: "standard" },
            unit_price: { amount: "2900", currency_code: "USD" },
            billing_cycle: { interval: "month", frequency: 1 },
            trial_period: trialDays ? { interval: "day", frequency: trialDays } : null,
          },
          quantity: 1,
        },
      ],
      discount_id: created.body.data.id,
      custom_data: { order_id: "ord_sub" },
    },
  });
  expect(transaction.status).toBe(201);
  expect((await sim.plain("POST", `/checkout/gateway_a/${transaction.body.data.id}/pay`)).status).toBe(200);
  const paid = (await sim.a("GET", `/transactions/${transaction.body.data.id}`)).body.data;
  const subscription = (await sim.a("GET", `/subscriptions/${paid.subscription_id}`)).body.data;
  return { discount: created.body.data, paid, subscription };
}

const renew = async (sim: GatewaySim, id: string) =>
  (await sim.plain("POST", `/__sim/gateway_a/subscriptions/${id}/renew`, { body: {} })).body;
const discountOf = (transaction: { discount_id: string | null; details: { totals: { discount: string } } }) => [
  transaction.discount_id,
  transaction.details.totals.discount,
];

describe("gateway_a renewals of a discounted subscription", () => {
  test("recurring for 2 intervals: the checkout and the first renewal are discounted, later renewals are not", async () => {
    const sim = simWithMarketplace();
    const flat = { type: "flat", amount: "500", currency_code: "USD", recur: true, maximum_recurring_intervals: 2 };
    const { discount, paid, subscription } = await discountedSubscription(sim, flat);
    expect(discountOf(paid)).toEqual([discount.id, "500"]);
    expect(paid.details.totals).toMatchObject({ subtotal: "2900", total: "2400", grand_total: "2400" });
    expect(subscription.discount).toEqual({
      id: discount.id,
      starts_at: subscription.current_billing_period.starts_at,
      // Two monthly periods from 31 January: 28 February, then 28 March.
      ends_at: "2026-03-28T10:00:00.000Z",
    });

    const second = await renew(sim, subscription.id);
    expect(discountOf(second.transaction)).toEqual([discount.id, "500"]);
    expect(second.transaction.details.totals.grand_total).toBe("2400");
    expect(second.subscription.discount).toEqual(subscription.discount);

    const third = await renew(sim, subscription.id);
    expect(discountOf(third.transaction)).toEqual([null, "0"]);
    expect(third.transaction.details.totals.grand_total).toBe("2900");
    expect(third.subscription.discount).toBeNull();

    const fourth = await renew(sim, subscription.id);
    expect(discountOf(fourth.transaction)).toEqual([null, "0"]);
    // Renewals are not redemptions: only the checkout counted.
    expect((await sim.a("GET", `/discounts/${discount.id}`)).body.data.times_used).toBe(1);

    const events = await marketplace.settle();
    const paidEvents = marketplace.ofType("transaction.paid").map((webhook) => webhook.body.data);
    expect(paidEvents.map((data) => data.details.totals.discount)).toEqual(["500", "0", "0"]);
    const completed = marketplace.ofType("transaction.completed").map((webhook) => webhook.body.data);
    expect(completed.map((data) => data.discount_id)).toEqual([discount.id, discount.id, null, null]);
    const updated = events.filter((webhook) => webhook.body.event_type === "subscription.updated");
    expect(updated.map((webhook) => webhook.body.data.discount?.id ?? null)).toEqual([discount.id, null, null]);
  });

  test("a one-off discount applies to the checkout only and does not stay with the subscription", async () => {
    const sim = simWithMarketplace();
    const { discount, paid, subscription } = await discountedSubscription(sim, { type: "percentage", amount: "50" });
    expect(discountOf(paid)).toEqual([discount.id, "1450"]);
    expect(subscription.discount).toBeNull();
    const renewed = await renew(sim, subscription.id);
    expect(discountOf(renewed.transaction)).toEqual([null, "0"]);
    expect(renewed.transaction.details.totals.grand_total).toBe("2900");
  });

  test("a discount that recurs forever discounts every renewal and has no end", async () => {
    const sim = simWithMarketplace();
    const forever = { type: "percentage", amount: "10", recur: true };
    const { discount, subscription } = await discountedSubscription(sim, forever);
    expect(subscription.discount).toMatchObject({ id: discount.id, ends_at: null });
    for (let i = 0; i < 3; i += 1) {
      const renewed = await renew(sim, subscription.id);
      expect(discountOf(renewed.transaction)).toEqual([discount.id, "290"]);
      expect(renewed.subscription.discount).toMatchObject({ id: discount.id, ends_at: null });
    }
  });

  test("after a trial, the intervals count from the first billed period", async () => {
    const sim = simWithMarketplace();
    const once = { type: "flat", amount: "900", currency_code: "USD", recur: true, maximum_recurring_intervals: 1 };
    const { discount, paid, subscription } = await discountedSubscription(sim, once, 7);
    expect(discountOf(paid)).toEqual([discount.id, "0"]);
    expect(subscription.discount).toEqual({
      id: discount.id,
      starts_at: "2026-02-07T10:00:00.000Z",
      ends_at: "2026-03-07T10:00:00.000Z",
    });
    expect(discountOf((await renew(sim, subscription.id)).transaction)).toEqual([discount.id, "900"]);
    const later = await renew(sim, subscription.id);
    expect(discountOf(later.transaction)).toEqual([null, "0"]);
    expect(later.subscription.discount).toBeNull();
  });

  test("an archived discount keeps discounting the subscriptions that hold it", async () => {
    const sim = simWithMarketplace();
    const forever = { type: "percentage", amount: "10", recur: true };
    const { discount, subscription } = await discountedSubscription(sim, forever);
    await sim.a("PATCH", `/discounts/${discount.id}`, { body: { status: "archived" } });
    expect(discountOf((await renew(sim, subscription.id)).transaction)).toEqual([discount.id, "290"]);
  });
});
