import type { OutgoingWebhook } from "../webhook-deliverer.ts";
import type { PeriodEnd } from "./subscription-billing.ts";

export type EventFactory = (type: string, data: unknown) => OutgoingWebhook;

/**
 * The events a period end sends, in the order Paddle documents for its "subscription renewed"
 * scenario, and the one a control reports. A renewal updates the subscription's billing period
 * (`subscription.updated`, and `subscription.activated` when a trial ends), then collects the
 * `subscription_recurring` transaction (`transaction.paid`, `transaction.completed`). A failure
 * sends `transaction.payment_failed` and `transaction.past_due`, and a newly past-due subscription
 * `subscription.past_due`; a recovery collects the past-due transaction and `subscription.updated`
 * reports the subscription active again.
 */
export function periodEndEvents(step: PeriodEnd, event: EventFactory) {
  if (step.kind === "ended") {
    const canceled = event("subscription.canceled", step.subscription);
    return { webhooks: [canceled], main: canceled };
  }
  const { transaction, subscription, previous } = step;
  if (step.kind === "failed") {
    const failed = event("transaction.payment_failed", transaction);
    const newPeriod = subscription.current_billing_period?.ends_at !== previous.current_billing_period?.ends_at;
    const webhooks = newPeriod
      ? [
          event("subscription.updated", subscription),
          failed,
          event("transaction.past_due", transaction),
          event("subscription.past_due", subscription),
        ]
      : [failed];
    return { webhooks, main: failed };
  }
  const paid = event("transaction.paid", { ...transaction, status: "paid" });
  const done = event("transaction.completed", transaction);
  if (step.kind === "recovered") {
    return { webhooks: [paid, done, event("subscription.updated", subscription)], main: done };
  }
  const activated = previous.status === "trialing" ? [event("subscription.activated", subscription)] : [];
  return { webhooks: [event("subscription.updated", subscription), ...activated, paid, done], main: done };
}
