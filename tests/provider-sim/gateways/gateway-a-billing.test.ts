import { afterEach, describe, expect, test } from "bun:test";
import { createGatewaySim, startMarketplace } from "./harness.ts";
import { paidTransaction } from "./lifecycles.ts";

let marketplace: ReturnType<typeof startMarketplace>;
afterEach(() => marketplace?.stop());

function simWithMarketplace() {
  marketplace = startMarketplace();
  return createGatewaySim({ PROVIDER_SIM_MARKETPLACE_URL: marketplace.url });
}

const DAY = 86_400;
const types = (from = 0) => marketplace.received.slice(from).map((webhook) => webhook.body.event_type);
type Sim = ReturnType<typeof createGatewaySim>;
const renew = (sim: Sim, id: string, body?: unknown) =>
  sim.plain("POST", `/__sim/gateway_a/subscriptions/${id}/renew`, body === undefined ? {} : { body });

describe("gateway_a renewals", () => {
  test("a trial's first renewal activates it; a failed one makes the transaction and subscription past_due; a retry recovers", async () => {
    const sim = simWithMarketplace();
    const trial = await paidTransaction(sim, { monthly: true, trialDays: 7 });
    const id = trial.subscription_id;
    const renewed = await renew(sim, id);
    expect(renewed.body).toMatchObject({ outcome: "renewed", subscription: { status: "active" } });
    expect(types(1)).toEqual([
      "subscription.updated",
      "subscription.activated",
      "transaction.paid",
      "transaction.completed",
    ]);
    expect(marketplace.received[3]?.body.data).toMatchObject({ status: "paid", origin: "subscription_recurring" });
    expect(renewed.body.transaction).toMatchObject({
      status: "completed",
      origin: "subscription_recurring",
      subscription_id: id,
      billing_period: { starts_at: "2026-02-07T10:00:00.000Z", ends_at: "2026-03-07T10:00:00.000Z" },
      details: {
        totals: { subtotal: "2900", tax: "0", total: "2900", grand_total: "2900", fee: "0", earnings: "2900" },
      },
      payments: [{ status: "captured", amount: "2900", error_code: null }],
    });

    const failed = await renew(sim, id, { fail: true });
    expect(failed.body).toMatchObject({ outcome: "failed", subscription: { status: "past_due" } });
    expect(failed.body.transaction).toMatchObject({
      status: "past_due",
      payments: [{ status: "error", error_code: "declined" }],
    });
    expect(types(5)).toEqual([
      "subscription.updated",
      "transaction.payment_failed",
      "transaction.past_due",
      "subscription.past_due",
    ]);
    expect(failed.body.subscription.current_billing_period.ends_at).toBe("2026-04-07T10:00:00.000Z");

    const retried = await renew(sim, id, { fail: true });
    expect(retried.body.events.map((event: { event_type: string }) => event.event_type)).toEqual([
      "transaction.payment_failed",
    ]);
    const recovered = await renew(sim, id);
    expect(recovered.body).toMatchObject({ outcome: "recovered", subscription: { status: "active" } });
    expect(recovered.body.transaction.id).toBe(failed.body.transaction.id);
    expect(recovered.body.transaction.payments.map((payment: { status: string }) => payment.status)).toEqual([
      "captured",
      "error",
      "error",
    ]);
    expect(types(10)).toEqual(["transaction.paid", "transaction.completed", "subscription.updated"]);
    expect(recovered.body.subscription.current_billing_period.ends_at).toBe("2026-04-07T10:00:00.000Z");
  });

  test("the clock renews every subscription whose period it passes, or fails it when a failure is armed", async () => {
    const sim = simWithMarketplace();
    const monthly = await paidTransaction(sim, { monthly: true });
    await sim.plain("POST", "/__sim/clock", { body: { advance_seconds: 29 * DAY } });
    await marketplace.waitFor(4);
    expect(types(1)).toEqual(["subscription.updated", "transaction.paid", "transaction.completed"]);
    const armed = `/__sim/gateway_a/subscriptions/${monthly.subscription_id}/next_renewal`;
    expect((await sim.plain("POST", armed, { body: { outcome: "fail" } })).status).toBe(200);
    await sim.plain("POST", "/__sim/clock", { body: { advance_seconds: 31 * DAY } });
    await marketplace.waitFor(8);
    expect(types(4)).toEqual([
      "subscription.updated",
      "transaction.payment_failed",
      "transaction.past_due",
      "subscription.past_due",
    ]);
    expect((await sim.a("GET", `/subscriptions/${monthly.subscription_id}`)).body.data.status).toBe("past_due");
  });
});

describe("gateway_a scheduled cancellation", () => {
  test("next_billing_period schedules it (subscription.updated); PATCH scheduled_change null removes it; the period end cancels", async () => {
    const sim = simWithMarketplace();
    const { subscription_id: id } = await paidTransaction(sim, { monthly: true });
    const cancel = () =>
      sim.a("POST", `/subscriptions/${id}/cancel`, { body: { effective_from: "next_billing_period" } });
    const scheduled = (await cancel()).body.data;
    expect(scheduled).toMatchObject({
      status: "active",
      scheduled_change: { action: "cancel", effective_at: "2026-02-28T10:00:00.000Z", resume_at: null },
    });
    const patched = await sim.a("PATCH", `/subscriptions/${id}`, { body: { scheduled_change: null } });
    expect(patched.body.data.scheduled_change).toBeNull();
    // `status` is no field of Paddle's update; `custom_data` is one the sandbox does not change.
    expect((await sim.a("PATCH", `/subscriptions/${id}`, { body: { status: "paused" } })).status).toBe(400);
    expect((await sim.a("PATCH", `/subscriptions/${id}`, { body: { custom_data: {} } })).status).toBe(422);
    await cancel();
    await marketplace.waitFor(4);
    expect(types(1)).toEqual(["subscription.updated", "subscription.updated", "subscription.updated"]);
    await sim.plain("POST", "/__sim/clock", { body: { advance_seconds: 29 * DAY } });
    const canceled = (await marketplace.waitFor(5))[4]?.body;
    expect(canceled).toMatchObject({
      event_type: "subscription.canceled",
      data: {
        id,
        status: "canceled",
        canceled_at: "2026-02-28T10:00:00.000Z",
        scheduled_change: null,
        next_billed_at: null,
      },
    });
    expect((await renew(sim, id)).status).toBe(409);
  });
});

describe("gateway_a chargebacks", () => {
  test("a chargeback is an approved adjustment.created with action chargeback; its reversal is chargeback_reverse", async () => {
    const sim = simWithMarketplace();
    const transaction = await paidTransaction(sim, { amount: "5000" });
    const path = `/__sim/gateway_a/transactions/${transaction.id}/chargeback`;
    const charged = await sim.plain("POST", path);
    expect(charged.body).toMatchObject({
      delivered: true,
      adjustment: {
        action: "chargeback",
        type: "full",
        status: "approved",
        transaction_id: transaction.id,
        customer_id: transaction.customer_id,
        totals: { total: "5000", currency_code: "USD" },
      },
    });
    expect((await sim.plain("POST", path)).status).toBe(409);
    const refund = { action: "refund", transaction_id: transaction.id, reason: "late", type: "full" };
    expect((await sim.a("POST", "/adjustments", { body: refund })).status).toBe(422);
    const reversed = await sim.plain("POST", `${path}/reverse`);
    expect(reversed.body.adjustment).toMatchObject({
      action: "chargeback_reverse",
      status: "approved",
      totals: { total: "5000" },
    });
    expect((await sim.plain("POST", `${path}/reverse`)).status).toBe(409);
    const partial = await sim.plain("POST", path, { body: { amount: 1200 } });
    expect(partial.body.adjustment).toMatchObject({ type: "partial", totals: { total: "1200" } });
    await marketplace.waitFor(4);
    expect(marketplace.received.slice(1).map((webhook) => [webhook.body.event_type, webhook.body.data.action])).toEqual(
      [
        ["adjustment.created", "chargeback"],
        ["adjustment.created", "chargeback_reverse"],
        ["adjustment.created", "chargeback"],
      ],
    );
  });
});

describe("gateway_a tax", () => {
  test("internal prices include the tax, external ones add it; account_setting follows the sandbox's default_tax_mode", async () => {
    const sim = createGatewaySim();
    expect(
      (await sim.plain("POST", "/__sim/gateway_a/tax", { body: { rate: 0.2, default_tax_mode: "inclusive" } })).status,
    ).toBe(200);
    const product = (await sim.a("POST", "/products", { body: { name: "POS", tax_category: "standard" } })).body.data;
    const price = async (tax_mode?: string) =>
      (
        await sim.a("POST", "/prices", {
          body: {
            product_id: product.id,
            description: "d",
            unit_price: { amount: "1200", currency_code: "USD" },
            ...(tax_mode ? { tax_mode } : {}),
          },
        })
      ).body.data;
    const totalsFor = async (priceId: string) =>
      (await sim.a("POST", "/transactions", { body: { items: [{ price_id: priceId, quantity: 1 }] } })).body.data
        .details;
    const internal = await price("internal");
    expect(internal.tax_mode).toBe("internal");
    expect((await totalsFor(internal.id)).totals).toMatchObject({
      subtotal: "1000",
      tax: "200",
      total: "1200",
      grand_total: "1200",
    });
    const external = await totalsFor((await price("external")).id);
    expect(external.totals).toMatchObject({ subtotal: "1200", tax: "240", total: "1440", grand_total: "1440" });
    expect(external.line_items[0]).toMatchObject({
      tax_rate: "0.2",
      unit_totals: { subtotal: "1200", tax: "240", total: "1440" },
    });
    const account = await price();
    expect(account.tax_mode).toBe("account_setting");
    expect((await totalsFor(account.id)).totals).toMatchObject({ subtotal: "1000", tax: "200", total: "1200" });
    expect(await price("sometimes")).toBeUndefined();
  });
});
