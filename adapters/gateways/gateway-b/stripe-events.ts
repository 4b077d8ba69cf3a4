import { InvalidWebhookPayload } from "../../../domain/payments/errors.ts";
import type { GatewayEvent, PaymentPointer, SubscriptionFacts } from "../../../domain/payments/gateway-event.ts";
import type { ChargedAmount } from "../../../domain/payments/payment.ts";
import { isRecord } from "../../../domain/shared/is-record.ts";
import { type StripeEnvelope as Envelope, metadataOrderId, readEvent as read } from "./stripe-event-reader.ts";
import type { Fields } from "./stripe-fields.ts";
import { chargeRefunded, disputeEvent } from "./stripe-money-events.ts";

const PAID_STATUSES = new Set(["paid", "no_payment_required"]);

/** Newer API versions moved an invoice's subscription under `parent.subscription_details`. */
function subscriptionDetails(invoice: Fields): Fields {
  if (isRecord(invoice.parent) && isRecord(invoice.parent.subscription_details))
    return invoice.parent.subscription_details;
  return isRecord(invoice.subscription_details) ? invoice.subscription_details : {};
}

function invoiceSubscription(invoice: Fields): { id: string | null; order_id: string | null } {
  const details = subscriptionDetails(invoice);
  return {
    id: read.optionalId(invoice, "subscription") ?? read.optionalId(details, "subscription"),
    order_id: metadataOrderId(details) ?? metadataOrderId(invoice),
  };
}

function subscriptionFacts(session: Fields): SubscriptionFacts | null {
  const id = read.optionalId(session, "subscription");
  if (id === null) return null;
  const expanded = isRecord(session.subscription) ? session.subscription : {};
  return {
    subscription_id: id,
    trial_ends_at: read.optionalTime(expanded, "trial_end"),
    current_period_end: read.optionalTime(expanded, "current_period_end"),
  };
}

/**
 * A session's charge: `amount_total` with `total_details.amount_tax` in it; before tax
 * `amount_subtotal` (before discounts and tax) less `total_details.amount_discount`.
 */
function sessionCharge(session: Fields, paid: boolean): ChargedAmount {
  const amount = paid ? read.integer(session, "amount_total") : (read.optionalInteger(session, "amount_total") ?? 0);
  const details = isRecord(session.total_details) ? session.total_details : {};
  const tax = read.optionalInteger(details, "amount_tax") ?? 0;
  const subtotal = read.optionalInteger(session, "amount_subtotal") ?? amount - tax;
  const discount = read.optionalInteger(details, "amount_discount") ?? 0;
  return {
    amount,
    tax,
    pre_tax: subtotal - discount,
    discount,
    currency: read.string(session, "currency").toUpperCase(),
  };
}

/**
 * A payment-mode session names its payment intent. A subscription-mode session has none
 * (`payment_intent: null`): it names the invoice, whose payment is looked up at Stripe. A session
 * with nothing to pay (a trial) may name neither: the session itself stands for the payment.
 */
function sessionPointer(session: Fields): PaymentPointer {
  const intent = read.optionalId(session, "payment_intent");
  const invoice = read.optionalId(session, "invoice");
  const payment_id = intent ?? (invoice === null ? read.string(session, "id") : null);
  return { payment_id, payment_intent_id: intent, invoice_id: invoice };
}

function sessionCompleted(base: Envelope, session: Fields, type: string): GatewayEvent {
  const status = read.string(session, "payment_status");
  if (!PAID_STATUSES.has(status)) return { ...base, kind: "ignored", type: "checkout.session.completed" };
  const orderId = read.optionalString(session, "client_reference_id") ?? metadataOrderId(session);
  // Another integration on the same Stripe account: acknowledged, so Stripe does not retry it for days.
  if (orderId === null) return { ...base, kind: "ignored", type, not_ours: "the checkout session names no order" };
  return {
    ...base,
    kind: "paid",
    order_id: orderId,
    payment: sessionPointer(session),
    ...sessionCharge(session, status === "paid"),
    subscription: subscriptionFacts(session),
  };
}

/** What discount codes took off an invoice: the sum of its `total_discount_amounts`. */
function invoiceDiscount(invoice: Fields): number {
  if (!Array.isArray(invoice.total_discount_amounts)) return 0;
  return invoice.total_discount_amounts.reduce<number>(
    (sum, entry) => sum + (isRecord(entry) ? (read.optionalInteger(entry, "amount") ?? 0) : 0),
    0,
  );
}

/** An invoice's tax: `total_taxes` on current API versions, `tax` on older ones. */
function invoiceTax(invoice: Fields): number {
  if (Array.isArray(invoice.total_taxes)) {
    return invoice.total_taxes.reduce<number>(
      (sum, entry) => sum + (isRecord(entry) ? (read.optionalInteger(entry, "amount") ?? 0) : 0),
      0,
    );
  }
  return read.optionalInteger(invoice, "tax") ?? 0;
}

function invoiceCharge(invoice: Fields): ChargedAmount {
  const amount = read.integer(invoice, "amount_paid");
  const tax = invoiceTax(invoice);
  return {
    amount,
    tax,
    pre_tax: read.optionalInteger(invoice, "total_excluding_tax") ?? amount - tax,
    discount: invoiceDiscount(invoice),
    currency: read.string(invoice, "currency").toUpperCase(),
  };
}

/** Whether an invoice holds a proration: a credit for unused time or the rest of a period. */
function prorates(lines: readonly unknown[]): boolean {
  return lines.some((line) => {
    const parent = isRecord(line) && isRecord(line.parent) ? line.parent : {};
    return isRecord(parent.subscription_item_details) && parent.subscription_item_details.proration === true;
  });
}

/**
 * A paid subscription invoice: `subscription_cycle` is a renewal; `subscription_update` the
 * difference a plan change billed at once (nothing to book when a credit covered all of it). An
 * update invoice with no proration in it starts a new period at the new price (a schedule's phase
 * beginning): a renewal.
 */
function invoicePaid(base: Envelope, invoice: Fields): GatewayEvent {
  const reason = invoice.billing_reason;
  if (reason !== "subscription_cycle" && reason !== "subscription_update") {
    return { ...base, kind: "ignored", type: "invoice.paid" };
  }
  const subscription = invoiceSubscription(invoice);
  if (subscription.id === null) throw new InvalidWebhookPayload("the subscription invoice names no subscription");
  // Older API versions name the payment intent and charge on the invoice; current ones do not.
  const payment = {
    payment_id: read.optionalId(invoice, "payment_intent"),
    payment_intent_id: read.optionalId(invoice, "payment_intent"),
    charge_id: read.optionalId(invoice, "charge"),
    invoice_id: read.string(invoice, "id"),
  };
  const common = { subscription_id: subscription.id, order_id: subscription.order_id, payment };
  const lines = isRecord(invoice.lines) && Array.isArray(invoice.lines.data) ? invoice.lines.data : [];
  if (reason === "subscription_update" && prorates(lines)) {
    const charge = invoiceCharge(invoice);
    return charge.amount === 0
      ? { ...base, kind: "ignored", type: "invoice.paid" }
      : { ...base, kind: "prorated", ...common, ...charge };
  }
  const period = isRecord(lines[0]) && isRecord(lines[0].period) ? lines[0].period : {};
  return {
    ...base,
    kind: "renewed",
    ...common,
    ...invoiceCharge(invoice),
    current_period_end: read.optionalTime(period, "end"),
  };
}

function paymentFailed(base: Envelope, object: Fields, type: string): GatewayEvent {
  if (type === "invoice.payment_failed") {
    const subscription = invoiceSubscription(object);
    return {
      ...base,
      kind: "payment_failed",
      order_id: subscription.order_id,
      subscription_id: subscription.id,
      reason: "invoice payment failed",
    };
  }
  const error = isRecord(object.last_payment_error) ? object.last_payment_error : {};
  const reason = read.optionalString(error, "message") ?? read.optionalString(error, "code") ?? "payment failed";
  return { ...base, kind: "payment_failed", order_id: metadataOrderId(object), subscription_id: null, reason };
}

const subscriptionEvent =
  (kind: "cancelled" | "subscription_updated") =>
  (base: Envelope, subscription: Fields): GatewayEvent => ({
    ...base,
    kind,
    subscription_id: read.string(subscription, "id"),
    order_id: metadataOrderId(subscription),
  });

/**
 * The event types the marketplace acts on, each with how it reads; any other type is stored and
 * ignored. The webhook's API document lists these keys, so a type added here is documented too.
 */
const ACTED_ON: Readonly<Record<string, (base: Envelope, object: Fields, type: string) => GatewayEvent>> = {
  "checkout.session.completed": sessionCompleted,
  "checkout.session.async_payment_succeeded": sessionCompleted,
  "checkout.session.async_payment_failed": (base, session) => ({
    ...base,
    kind: "payment_failed",
    order_id: read.optionalString(session, "client_reference_id") ?? metadataOrderId(session),
    subscription_id: null,
    reason: "delayed payment failed",
  }),
  "invoice.paid": invoicePaid,
  "invoice.payment_failed": paymentFailed,
  "payment_intent.payment_failed": paymentFailed,
  "customer.subscription.updated": subscriptionEvent("subscription_updated"),
  "customer.subscription.deleted": subscriptionEvent("cancelled"),
  "customer.subscription.trial_will_end": (base, subscription) => ({
    ...base,
    kind: "trial_ending",
    subscription_id: read.string(subscription, "id"),
    order_id: metadataOrderId(subscription),
    trial_ends_at: read.optionalTime(subscription, "trial_end"),
  }),
  "charge.refunded": chargeRefunded,
  "charge.dispute.created": disputeEvent,
  "charge.dispute.closed": disputeEvent,
};

export const STRIPE_EVENT_TYPES_ACTED_ON: readonly string[] = Object.keys(ACTED_ON);

/** A Stripe Event as the neutral event it stands for (see docs/gateway-wire-formats.md). */
export function normalizeStripeEvent(payload: unknown): GatewayEvent {
  const event = read.record(payload, "the event");
  const type = read.string(event, "type");
  const base: Envelope = {
    gateway: "gateway_b",
    event_id: read.string(event, "id"),
    livemode: typeof event.livemode === "boolean" ? event.livemode : null,
  };
  const object = read.record(read.record(event.data, "data").object, "data.object");
  const normalize = Object.hasOwn(ACTED_ON, type) ? ACTED_ON[type] : undefined;
  return normalize ? normalize(base, object, type) : { ...base, kind: "ignored", type };
}
