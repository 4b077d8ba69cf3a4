import { afterEach, describe, expect, test } from "bun:test";
import { createGatewaySim, NOW_UNIX, startMarketplace, stripeSignatureValid } from "./harness.ts";
import { paidSession } from "./lifecycles.ts";

let marketplace: ReturnType<typeof startMarketplace>;
afterEach(() => marketplace?.stop());

function simWithMarketplace(statuses: number[] = []) {
  marketplace = startMarketplace(statuses);
  return createGatewaySim({ PROVIDER_SIM_MARKETPLACE_URL: marketplace.url });
}

const MONTH_1 = Date.UTC(2026, 1, 28, 10) / 1000;
const MONTH_2 = Date.UTC(2026, 2, 28, 10) / 1000;

describe("gateway_b one-time payments and refunds", () => {
  test("a refund succeeds at once; charge.refunded reports the amount refunded so far, then refund.created", async () => {
    const sim = simWithMarketplace();
    const session = await paidSession(sim, { orderId: "ord_b" });
    // Bun's toMatchObject writes its matchers into the object it checks, so it gets a copy.
    expect({ ...session }).toMatchObject({
      mode: "payment",
      payment_intent: expect.stringMatching(/^pi_/),
      invoice: null,
    });
    const refund = await sim.b("POST", "/refunds", { payment_intent: session.payment_intent, amount: 900 });
    expect(refund.body).toMatchObject({
      object: "refund",
      amount: 900,
      status: "succeeded",
      payment_intent: session.payment_intent,
    });
    expect((await sim.b("POST", "/refunds", { payment_intent: session.payment_intent })).body.amount).toBe(2000);
    expect((await sim.b("POST", "/refunds", { payment_intent: session.payment_intent })).body.error.code).toBe(
      "charge_already_refunded",
    );
    await marketplace.waitFor(5);
    // Background deliveries of two refunds race each other, as real gateways' do: order by amount.
    const charges = marketplace
      .ofType("charge.refunded")
      .map((webhook) => webhook.body.data.object)
      .sort((x, y) => x.amount_refunded - y.amount_refunded);
    expect(charges.map((charge) => [charge.payment_intent, charge.amount_refunded, charge.refunded])).toEqual([
      [session.payment_intent, 900, false],
      [session.payment_intent, 2900, true],
    ]);
    expect(charges[0].id).toStartWith("ch_");
    expect(charges[0].metadata).toEqual({ order_id: "ord_b" });
    expect(charges[0]).not.toHaveProperty("invoice");
    const refunds = marketplace
      .ofType("refund.created")
      .map((webhook) => webhook.body.data.object)
      .sort((x, y) => x.amount - y.amount);
    expect(refunds.map((entry) => [entry.amount, entry.charge])).toEqual([
      [900, charges[0].id],
      [2000, charges[0].id],
    ]);
    for (const webhook of marketplace.received)
      expect(stripeSignatureValid(webhook.headers.get("stripe-signature"), webhook.raw)).toBe(true);
    expect((await sim.b("GET", "/balance")).body.available[0].amount).toBe(0);
  });
});

describe("gateway_b refund list", () => {
  test("lists a payment intent's refunds newest first, a page at a time, with their metadata", async () => {
    const sim = simWithMarketplace();
    const session = await paidSession(sim, { orderId: "ord_list" });
    const other = await paidSession(sim, { orderId: "ord_other" });
    const intent = session.payment_intent as string;
    for (const reference of ["rf_1", "rf_2", "rf_3"]) {
      await sim.b("POST", "/refunds", { payment_intent: intent, amount: 100, "metadata[refund_reference]": reference });
    }
    await sim.b("POST", "/refunds", { payment_intent: other.payment_intent, amount: 100 });

    const first = await sim.b("GET", `/refunds?payment_intent=${intent}&limit=2`);
    expect(first.body).toMatchObject({ object: "list", url: "/v1/refunds", has_more: true });
    const references = (page: { data: { metadata: { refund_reference: string } }[] }) =>
      page.data.map((refund) => refund.metadata.refund_reference);
    expect(references(first.body)).toEqual(["rf_3", "rf_2"]);
    const last = first.body.data[1].id as string;
    const second = await sim.b("GET", `/refunds?payment_intent=${intent}&limit=2&starting_after=${last}`);
    expect(second.body).toMatchObject({ has_more: false });
    expect(references(second.body)).toEqual(["rf_1"]);
    expect((await sim.b("GET", "/refunds?limit=100")).body.data).toHaveLength(4);
    expect((await sim.b("GET", "/refunds?status=succeeded")).body.error).toMatchObject({ code: "parameter_unknown" });
  });
});

describe("gateway_b subscription checkout: the first invoice pays, not a payment intent of the session", () => {
  test("the session names its invoice; the invoice payment names the intent; the intent its charge", async () => {
    const sim = simWithMarketplace();
    const session = await paidSession(sim, { monthly: true, orderId: "ord_s" });
    expect({ ...session }).toMatchObject({
      mode: "subscription",
      payment_status: "paid",
      payment_intent: null,
      invoice: expect.stringMatching(/^in_/),
      subscription: expect.stringMatching(/^sub_/),
      customer: expect.stringMatching(/^cus_/),
      amount_subtotal: 2900,
      amount_total: 2900,
      total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
      client_reference_id: "ord_s",
      metadata: { order_id: "ord_s" },
    });
    const invoice = (await sim.b("GET", `/invoices/${session.invoice}`)).body;
    expect(invoice).toMatchObject({
      object: "invoice",
      billing_reason: "subscription_create",
      status: "paid",
      amount_paid: 2900,
      subtotal: 2900,
      total: 2900,
      total_taxes: [],
      parent: { type: "subscription_details", subscription_details: { subscription: session.subscription } },
      lines: {
        data: [{ amount: 2900, period: { start: NOW_UNIX, end: MONTH_1 }, subscription: session.subscription }],
      },
    });
    for (const gone of ["payment_intent", "charge", "subscription", "paid", "tax"])
      expect(invoice).not.toHaveProperty(gone);
    const payments = (await sim.b("GET", `/invoice_payments?invoice=${invoice.id}`)).body;
    expect(payments).toMatchObject({
      object: "list",
      data: [{ object: "invoice_payment", status: "paid", amount_paid: 2900 }],
    });
    const intentId = payments.data[0].payment.payment_intent;
    expect(
      (await sim.b("GET", `/invoices/${invoice.id}?expand[]=payments`)).body.payments.data[0].payment.payment_intent,
    ).toBe(intentId);
    const intent = (await sim.b("GET", `/payment_intents/${intentId}`)).body;
    expect({ ...intent }).toMatchObject({
      status: "succeeded",
      amount: 2900,
      latest_charge: expect.stringMatching(/^ch_/),
    });
    expect((await sim.b("GET", `/charges/${intent.latest_charge}`)).body).toMatchObject({
      payment_intent: intentId,
      paid: true,
    });

    await marketplace.waitFor(4);
    expect(marketplace.received.map((webhook) => webhook.body.type)).toEqual([
      "checkout.session.completed",
      "customer.subscription.created",
      "invoice.paid",
      "invoice_payment.paid",
    ]);
    expect(marketplace.received[3]?.body.data.object).toMatchObject({
      invoice: invoice.id,
      payment: { payment_intent: intentId },
    });
    const subscription = (await sim.b("GET", `/subscriptions/${session.subscription}`)).body;
    expect(subscription).toMatchObject({
      status: "active",
      latest_invoice: invoice.id,
      items: { data: [{ current_period_end: MONTH_1 }] },
    });
    expect(subscription).not.toHaveProperty("current_period_end");
  });

  test("a trial is no_payment_required: its $0 invoice is paid with no invoice payment", async () => {
    const sim = simWithMarketplace();
    const session = await paidSession(sim, { monthly: true, trialDays: 14 });
    expect(session).toMatchObject({ payment_status: "no_payment_required", amount_total: 0, payment_intent: null });
    expect((await sim.b("GET", `/invoices/${session.invoice}`)).body).toMatchObject({ status: "paid", amount_paid: 0 });
    expect((await sim.b("GET", `/invoice_payments?invoice=${session.invoice}`)).body.data).toEqual([]);
    const renewed = await sim.plain("POST", `/__sim/gateway_b/subscriptions/${session.subscription}/renew`);
    expect(renewed.body).toMatchObject({
      outcome: "renewed",
      invoice: { billing_reason: "subscription_cycle", amount_paid: 2900 },
    });
    expect(renewed.body.subscription).toMatchObject({ status: "active", trial_end: NOW_UNIX + 14 * 86_400 });
  });
});

describe("gateway_b renewals", () => {
  test("renew pays a subscription_cycle invoice for the next period; fail leaves it open and the subscription past_due; renew recovers", async () => {
    const sim = simWithMarketplace();
    const session = await paidSession(sim, { monthly: true });
    const path = `/__sim/gateway_b/subscriptions/${session.subscription}/renew`;
    await marketplace.waitFor(4);

    const renewed = await sim.plain("POST", path);
    expect(renewed.body).toMatchObject({ delivered: true, status: 200, outcome: "renewed" });
    expect(renewed.body.events.map((event: { event_type: string }) => event.event_type)).toEqual([
      "customer.subscription.updated",
      "invoice.paid",
      "invoice_payment.paid",
    ]);
    const paid = marketplace.received.find((webhook) => webhook.body.id === renewed.body.event_id)?.body.data.object;
    expect(paid).toMatchObject({
      billing_reason: "subscription_cycle",
      amount_paid: 2900,
      period_start: NOW_UNIX,
      period_end: MONTH_1,
      parent: { subscription_details: { subscription: session.subscription } },
      lines: { data: [{ period: { start: MONTH_1, end: MONTH_2 } }] },
    });
    const updated = marketplace.ofType("customer.subscription.updated")[0]?.body.data;
    expect(updated.object.items.data[0].current_period_end).toBe(MONTH_2);
    expect(updated.previous_attributes).toMatchObject({ latest_invoice: session.invoice });

    const failed = await sim.plain("POST", path, { body: { fail: true } });
    expect(failed.body).toMatchObject({ outcome: "failed", subscription: { status: "past_due" } });
    expect(failed.body.invoice).toMatchObject({
      status: "open",
      attempt_count: 1,
      amount_paid: 0,
      amount_remaining: 2900,
    });
    const openPayment = (await sim.b("GET", `/invoice_payments?invoice=${failed.body.invoice.id}`)).body.data[0];
    expect(openPayment.status).toBe("open");
    const declined = (await sim.b("GET", `/payment_intents/${openPayment.payment.payment_intent}`)).body;
    expect(declined).toMatchObject({
      status: "requires_payment_method",
      last_payment_error: { code: "card_declined" },
    });

    const recovered = await sim.plain("POST", path);
    expect(recovered.body).toMatchObject({ outcome: "recovered", subscription: { status: "active" } });
    expect(recovered.body.invoice).toMatchObject({ id: failed.body.invoice.id, status: "paid", attempt_count: 2 });
    expect(recovered.body.subscription.items.data[0].current_period_end).toBe(
      failed.body.subscription.items.data[0].current_period_end,
    );
    expect(recovered.body.events.map((event: { event_type: string }) => event.event_type)).toEqual([
      "invoice.paid",
      "invoice_payment.paid",
      "customer.subscription.updated",
    ]);
    expect(marketplace.ofType("customer.subscription.updated").at(-1)?.body.data.previous_attributes).toEqual({
      status: "past_due",
    });
    expect((await sim.b("GET", `/payment_intents/${openPayment.payment.payment_intent}`)).body.status).toBe(
      "succeeded",
    );
  });

  test("DELETE cancels at once and emits customer.subscription.deleted; __sim cancel does too, once", async () => {
    const sim = simWithMarketplace();
    const session = await paidSession(sim, { monthly: true, orderId: "ord_b" });
    const deleted = await sim.b("DELETE", `/subscriptions/${session.subscription}`);
    expect(deleted.body).toMatchObject({ status: "canceled", canceled_at: NOW_UNIX, ended_at: NOW_UNIX });
    await marketplace.waitFor(5);
    expect(marketplace.ofType("customer.subscription.deleted")[0]?.body.data.object).toMatchObject({
      id: session.subscription,
      metadata: { order_id: "ord_b" },
    });
    const other = await paidSession(sim, { monthly: true });
    expect(
      (await sim.plain("POST", `/__sim/gateway_b/subscriptions/${other.subscription}/cancel`)).body.delivered,
    ).toBe(true);
    expect((await sim.plain("POST", `/__sim/gateway_b/subscriptions/${other.subscription}/cancel`)).status).toBe(409);
    expect((await sim.plain("POST", `/__sim/gateway_b/subscriptions/${other.subscription}/renew`)).status).toBe(409);
  });
});
