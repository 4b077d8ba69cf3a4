import { expect } from "bun:test";
import { aSession, aTransaction } from "./flows.ts";
import type { GatewaySim } from "./harness.ts";

const DAY = 86_400;

/** A checkout paid through the hosted page's script action; returns the session as it now reads. */
export async function paidSession(sim: GatewaySim, options: Parameters<typeof aSession>[1] = {}) {
  const session = await aSession(sim, options);
  expect((await sim.plain("POST", `/checkout/gateway_b/${session.id}/pay`)).status).toBe(200);
  return (await sim.b("GET", `/checkout/sessions/${session.id}`)).body;
}

export async function paidTransaction(sim: GatewaySim, options: Parameters<typeof aTransaction>[1] = {}) {
  const transaction = await aTransaction(sim, options);
  expect((await sim.plain("POST", `/checkout/gateway_a/${transaction.id}/pay`)).status).toBe(200);
  return (await sim.a("GET", `/transactions/${transaction.id}`)).body.data;
}

async function control(sim: GatewaySim, path: string, body?: unknown) {
  const response = await sim.plain("POST", `/__sim/${path}`, body === undefined ? {} : { body });
  expect(response.status).toBe(200);
  return response.body;
}

/**
 * Every kind of event gateway_b sends: a one-time payment refunded and disputed; a subscription
 * renewed, failed, recovered, set to cancel and ended by the clock; a trial deleted at once.
 */
export async function everyStripeEvent(sim: GatewaySim) {
  const oneTime = await paidSession(sim, { orderId: "ord_once", successUrl: "https://shop.test/ok" });
  await sim.b("POST", "/refunds", { payment_intent: oneTime.payment_intent, amount: 900 });
  const charge = (await sim.b("GET", `/payment_intents/${oneTime.payment_intent}`)).body.latest_charge;
  const disputed = await control(sim, `gateway_b/charges/${charge}/dispute`, { reason: "fraudulent" });
  await control(sim, `gateway_b/disputes/${disputed.dispute.id}/close`, { outcome: "won" });

  const monthly = await paidSession(sim, { monthly: true, orderId: "ord_monthly", successUrl: "https://shop.test/ok" });
  const subscription = monthly.subscription as string;
  await control(sim, `gateway_b/subscriptions/${subscription}/renew`);
  await control(sim, `gateway_b/subscriptions/${subscription}/renew`, { fail: true });
  await control(sim, `gateway_b/subscriptions/${subscription}/renew`);
  await sim.b("POST", `/subscriptions/${subscription}`, { cancel_at_period_end: "true" });
  await sim.plain("POST", "/__sim/clock", { body: { advance_seconds: 100 * DAY } });

  const trial = await paidSession(sim, { monthly: true, trialDays: 14, orderId: "ord_trial" });
  // Three days before the trial ends, Stripe says so (`customer.subscription.trial_will_end`).
  await sim.plain("POST", "/__sim/clock", { body: { advance_seconds: 12 * DAY } });
  await sim.b("DELETE", `/subscriptions/${trial.subscription}`);
  return { oneTime, monthly, trial };
}

/**
 * Every kind of event gateway_a sends: a one-time payment refunded, charged back and reversed; a
 * trial renewed (activated), failed, recovered, scheduled to cancel, unscheduled, rescheduled and
 * ended by the clock.
 */
export async function everyPaddleEvent(sim: GatewaySim) {
  const oneTime = await paidTransaction(sim, { amount: "5000", orderId: "ord_once" });
  await sim.a("POST", "/adjustments", {
    body: {
      action: "refund",
      transaction_id: oneTime.id,
      reason: "customer asked",
      type: "partial",
      items: [{ item_id: oneTime.details.line_items[0].id, type: "partial", amount: "1000" }],
    },
  });
  await control(sim, `gateway_a/transactions/${oneTime.id}/chargeback`);
  await control(sim, `gateway_a/transactions/${oneTime.id}/chargeback/reverse`);

  const trial = await paidTransaction(sim, { monthly: true, trialDays: 7, orderId: "ord_sub" });
  const subscription = trial.subscription_id as string;
  await control(sim, `gateway_a/subscriptions/${subscription}/renew`);
  await control(sim, `gateway_a/subscriptions/${subscription}/renew`, { fail: true });
  await control(sim, `gateway_a/subscriptions/${subscription}/renew`);
  const schedule = () =>
    sim.a("POST", `/subscriptions/${subscription}/cancel`, { body: { effective_from: "next_billing_period" } });
  await schedule();
  await sim.a("PATCH", `/subscriptions/${subscription}`, { body: { scheduled_change: null } });
  await schedule();
  await sim.plain("POST", "/__sim/clock", { body: { advance_seconds: 70 * DAY } });
  return { oneTime, trial };
}
