import { changedFields } from "../control-result.ts";
import type { OutgoingWebhook } from "../webhook-deliverer.ts";
import type { StripeSubscription } from "./model.ts";
import type { PeriodEnd } from "./subscription-billing.ts";

export type EventFactory = (type: string, object: unknown, previous?: Record<string, unknown>) => OutgoingWebhook;

const WATCHED: readonly (keyof StripeSubscription)[] = [
  "status",
  "items",
  "latest_invoice",
  "cancel_at_period_end",
  "cancel_at",
  "canceled_at",
  "ended_at",
  "discounts",
];

/** `customer.subscription.updated` with `previous_attributes`, or nothing when nothing changed. */
export function subscriptionUpdated(
  event: EventFactory,
  previous: StripeSubscription,
  subscription: StripeSubscription,
): OutgoingWebhook[] {
  const changed = changedFields(previous, subscription, WATCHED);
  return changed ? [event("customer.subscription.updated", subscription, changed)] : [];
}

/**
 * The events a period end sends, in the order Stripe sends them, and the one a control reports:
 * a renewal moves the period (`customer.subscription.updated`), then pays its invoice
 * (`invoice.paid`, `invoice_payment.paid`); a failure sends `invoice.payment_failed`; a recovery
 * pays the open invoice and then reactivates the subscription.
 */
export function periodEndEvents(step: PeriodEnd, event: EventFactory) {
  if (step.kind === "ended") {
    const deleted = event("customer.subscription.deleted", step.subscription);
    return { webhooks: [deleted], main: deleted };
  }
  const updated = subscriptionUpdated(event, step.previous, step.subscription);
  if (step.kind === "failed") {
    const failed = event("invoice.payment_failed", step.invoice);
    return { webhooks: [...updated, failed], main: failed };
  }
  const paid = event("invoice.paid", step.invoice);
  const invoicePayment = step.invoicePayment ? [event("invoice_payment.paid", step.invoicePayment)] : [];
  const webhooks =
    step.kind === "renewed" ? [...updated, paid, ...invoicePayment] : [paid, ...invoicePayment, ...updated];
  return { webhooks, main: paid };
}
