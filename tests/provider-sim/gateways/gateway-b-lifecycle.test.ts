import { afterEach, describe, expect, test } from "bun:test";
import { createGatewaySim, NOW_UNIX, startMarketplace } from "./harness.ts";
import { paidSession } from "./lifecycles.ts";

let marketplace: ReturnType<typeof startMarketplace>;
afterEach(() => marketplace?.stop());

function simWithMarketplace() {
  marketplace = startMarketplace();
  return createGatewaySim({ PROVIDER_SIM_MARKETPLACE_URL: marketplace.url });
}

const DAY = 86_400;
const MONTH_1 = Date.UTC(2026, 1, 28, 10) / 1000;
const types = () => marketplace.received.map((webhook) => webhook.body.type);

describe("gateway_b cancellation at the period end", () => {
  test("cancel_at_period_end sets and clears the flag with customer.subscription.updated; the clock then ends it", async () => {
    const sim = simWithMarketplace();
    const session = await paidSession(sim, { monthly: true });
    const path = `/subscriptions/${session.subscription}`;
    const set = await sim.b("POST", path, { cancel_at_period_end: "true" });
    expect(set.body).toMatchObject({
      status: "active",
      cancel_at_period_end: true,
      cancel_at: MONTH_1,
      canceled_at: NOW_UNIX,
    });
    const cleared = await sim.b("POST", path, { cancel_at_period_end: "false" });
    expect(cleared.body).toMatchObject({ cancel_at_period_end: false, cancel_at: null, canceled_at: null });
    await sim.b("POST", path, { cancel_at_period_end: "true" });
    await marketplace.waitFor(7);
    const updates = marketplace.ofType("customer.subscription.updated").map((webhook) => webhook.body.data);
    expect(
      updates.map((data) => [data.object.cancel_at_period_end, data.previous_attributes.cancel_at_period_end]),
    ).toEqual([
      [true, false],
      [false, true],
      [true, false],
    ]);
    expect((await sim.b("POST", path, { cancel_at: "1" })).body.error.code).toBe("parameter_unknown");

    await sim.plain("POST", "/__sim/clock", { body: { advance_seconds: 27 * DAY } });
    await Bun.sleep(50);
    expect(marketplace.received).toHaveLength(7);
    await sim.plain("POST", "/__sim/clock", { body: { advance_seconds: 2 * DAY } });
    const [deleted] = (await marketplace.waitFor(8)).slice(7);
    expect(deleted?.body).toMatchObject({
      type: "customer.subscription.deleted",
      data: { object: { status: "canceled", ended_at: MONTH_1, canceled_at: NOW_UNIX, cancel_at_period_end: true } },
    });
    expect((await sim.b("GET", path)).body.status).toBe("canceled");
  });

  test("__sim renew on a subscription set to cancel ends it instead of billing", async () => {
    const sim = simWithMarketplace();
    const session = await paidSession(sim, { monthly: true });
    await sim.b("POST", `/subscriptions/${session.subscription}`, { cancel_at_period_end: "true" });
    const ended = await sim.plain("POST", `/__sim/gateway_b/subscriptions/${session.subscription}/renew`);
    expect(ended.body).toMatchObject({ outcome: "ended", subscription: { status: "canceled", ended_at: MONTH_1 } });
    expect(ended.body.events.map((event: { event_type: string }) => event.event_type)).toEqual([
      "customer.subscription.deleted",
    ]);
  });
});

describe("gateway_b renewals driven by the simulated clock", () => {
  test("moving past a period end renews; an armed failure fails the next one; renew recovers", async () => {
    const sim = simWithMarketplace();
    const session = await paidSession(sim, { monthly: true });
    await marketplace.waitFor(4);
    await sim.plain("POST", "/__sim/clock", { body: { advance_seconds: 29 * DAY } });
    await marketplace.waitFor(7);
    expect(types().slice(4)).toEqual(["customer.subscription.updated", "invoice.paid", "invoice_payment.paid"]);
    expect(marketplace.received[5]?.body.data.object.billing_reason).toBe("subscription_cycle");

    const armed = await sim.plain("POST", `/__sim/gateway_b/subscriptions/${session.subscription}/next_renewal`, {
      body: { outcome: "fail" },
    });
    expect(armed.body).toEqual({ subscription: session.subscription, next_renewal: "fail" });
    await sim.plain("POST", "/__sim/clock", { body: { advance_seconds: 31 * DAY } });
    await marketplace.waitFor(9);
    expect(types().slice(7)).toEqual(["customer.subscription.updated", "invoice.payment_failed"]);
    expect(marketplace.received[7]?.body.data.object.status).toBe("past_due");
    // No dunning in the sandbox: a past-due subscription waits for a retry however far the clock moves.
    await sim.plain("POST", "/__sim/clock", { body: { advance_seconds: 60 * DAY } });
    await Bun.sleep(50);
    expect(marketplace.received).toHaveLength(9);
    const recovered = await sim.plain("POST", `/__sim/gateway_b/subscriptions/${session.subscription}/renew`);
    expect(recovered.body).toMatchObject({ outcome: "recovered", subscription: { status: "active" } });
    expect(
      (await sim.plain("POST", "/__sim/gateway_b/subscriptions/sub_x/next_renewal", { body: { outcome: "fail" } }))
        .status,
    ).toBe(404);
  });
});

describe("gateway_b disputes", () => {
  test("a dispute opens on a charge (charge.dispute.created) and closes won or lost (charge.dispute.closed)", async () => {
    const sim = simWithMarketplace();
    const session = await paidSession(sim);
    const charge = (await sim.b("GET", `/payment_intents/${session.payment_intent}`)).body.latest_charge;
    const opened = await sim.plain("POST", `/__sim/gateway_b/charges/${charge}/dispute`, {
      body: { reason: "fraudulent" },
    });
    expect(opened.body).toMatchObject({ delivered: true, charge: { id: charge, disputed: true } });
    const dispute = opened.body.dispute;
    expect(dispute).toMatchObject({
      object: "dispute",
      charge,
      payment_intent: session.payment_intent,
      amount: 2900,
      currency: "usd",
      status: "needs_response",
      reason: "fraudulent",
      evidence_details: { due_by: NOW_UNIX + 7 * DAY },
    });
    expect(dispute.id).toStartWith("dp_");
    expect((await sim.plain("POST", `/__sim/gateway_b/charges/${charge}/dispute`)).status).toBe(409);
    const closed = await sim.plain("POST", `/__sim/gateway_b/disputes/${dispute.id}/close`, {
      body: { outcome: "lost" },
    });
    expect(closed.body.dispute.status).toBe("lost");
    expect(
      (await sim.plain("POST", `/__sim/gateway_b/disputes/${dispute.id}/close`, { body: { outcome: "won" } })).status,
    ).toBe(409);
    expect((await sim.b("GET", `/disputes/${dispute.id}`)).body.status).toBe("lost");
    expect(types()).toEqual(["checkout.session.completed", "charge.dispute.created", "charge.dispute.closed"]);
    expect(marketplace.received[2]?.body.data.object).toMatchObject({ id: dispute.id, status: "lost" });
    expect((await sim.plain("POST", "/__sim/gateway_b/charges/ch_unknown/dispute")).status).toBe(404);
    expect(
      (await sim.plain("POST", `/__sim/gateway_b/disputes/${dispute.id}/close`, { body: { outcome: "maybe" } })).status,
    ).toBe(422);
  });
});

describe("gateway_b tax", () => {
  async function taxedSession(sim: ReturnType<typeof createGatewaySim>, behavior: "exclusive" | "inclusive") {
    const product = (await sim.b("POST", "/products", { name: "POS Suite" })).body;
    const price = (
      await sim.b("POST", "/prices", {
        product: product.id,
        currency: "usd",
        unit_amount: 12000,
        "recurring[interval]": "month",
        tax_behavior: behavior,
      })
    ).body;
    expect(price.tax_behavior).toBe(behavior);
    const session = (
      await sim.b("POST", "/checkout/sessions", {
        mode: "subscription",
        client_reference_id: "ord_tax",
        "line_items[0][price]": price.id,
        "line_items[0][quantity]": 1,
      })
    ).body;
    await sim.plain("POST", `/checkout/gateway_b/${session.id}/pay`);
    return (await sim.b("GET", `/checkout/sessions/${session.id}`)).body;
  }

  test("exclusive tax is added on top, inclusive tax is inside; the invoice agrees with the session", async () => {
    const sim = createGatewaySim();
    expect((await sim.plain("GET", "/__sim/gateway_b/tax")).body).toEqual({ rate: 0 });
    expect((await sim.plain("POST", "/__sim/gateway_b/tax", { body: { rate: 0.2 } })).body).toEqual({ rate: 0.2 });
    const exclusive = await taxedSession(sim, "exclusive");
    expect(exclusive).toMatchObject({
      amount_subtotal: 12000,
      amount_total: 14400,
      total_details: { amount_tax: 2400 },
    });
    const invoice = (await sim.b("GET", `/invoices/${exclusive.invoice}`)).body;
    expect(invoice).toMatchObject({ subtotal: 12000, total: 14400, total_excluding_tax: 12000, amount_paid: 14400 });
    expect(invoice.total_taxes).toEqual([
      expect.objectContaining({ amount: 2400, tax_behavior: "exclusive", taxable_amount: 12000 }),
    ]);
    const inclusive = await taxedSession(sim, "inclusive");
    expect(inclusive).toMatchObject({
      amount_subtotal: 12000,
      amount_total: 12000,
      total_details: { amount_tax: 2000 },
    });
    const included = (await sim.b("GET", `/invoices/${inclusive.invoice}`)).body;
    expect(included).toMatchObject({
      subtotal: 12000,
      subtotal_excluding_tax: 10000,
      total: 12000,
      total_excluding_tax: 10000,
    });
    expect(included.lines.data[0].taxes[0]).toMatchObject({
      amount: 2000,
      tax_behavior: "inclusive",
      taxable_amount: 10000,
    });
    expect(
      (await sim.b("POST", "/prices", { product: "x", currency: "usd", unit_amount: 1, tax_behavior: "sometimes" }))
        .status,
    ).toBe(400);
    expect((await sim.plain("POST", "/__sim/gateway_b/tax", { body: { rate: 1.5 } })).status).toBe(422);
  });
});
