import { InvalidWebhookPayload } from "../../../application/payments/ports.ts";
import type { GatewayEvent, SubscriptionFacts } from "../../../domain/payments/gateway-event.ts";
import { createFieldReader, type Fields, isRecord } from "./field-reader.ts";

const read = createFieldReader((reason) => {
  throw new InvalidWebhookPayload(reason);
});

const PAID_STATUSES = new Set(["paid", "no_payment_required"]);

interface Envelope {
  readonly gateway: "gateway_b";
  readonly event_id: string;
}

const metadataOrderId = (object: Fields): string | null => {
  const metadata = object.metadata;
  return isRecord(metadata) ? read.optionalString(metadata, "order_id") : null;
};

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

function sessionCompleted(base: Envelope, session: Fields): GatewayEvent {
  const status = read.string(session, "payment_status");
  if (!PAID_STATUSES.has(status)) return { ...base, kind: "ignored", type: "checkout.session.completed" };
  const orderId = read.optionalString(session, "client_reference_id") ?? metadataOrderId(session);
  if (orderId === null) throw new InvalidWebhookPayload("the checkout session names no order");
  return {
    ...base,
    kind: "paid",
    order_id: orderId,
    payment_id:
      read.optionalId(session, "payment_intent") ?? read.optionalId(session, "invoice") ?? read.string(session, "id"),
    amount:
      status === "paid" ? read.integer(session, "amount_total") : (read.optionalInteger(session, "amount_total") ?? 0),
    currency: read.string(session, "currency").toUpperCase(),
    subscription: subscriptionFacts(session),
  };
}

function invoicePaid(base: Envelope, invoice: Fields): GatewayEvent {
  if (invoice.billing_reason !== "subscription_cycle") return { ...base, kind: "ignored", type: "invoice.paid" };
  const subscription = invoiceSubscription(invoice);
  if (subscription.id === null) throw new InvalidWebhookPayload("the renewal invoice names no subscription");
  const lines = isRecord(invoice.lines) && Array.isArray(invoice.lines.data) ? invoice.lines.data : [];
  const period = isRecord(lines[0]) && isRecord(lines[0].period) ? lines[0].period : {};
  return {
    ...base,
    kind: "renewed",
    subscription_id: subscription.id,
    order_id: subscription.order_id,
    payment_id: read.optionalId(invoice, "payment_intent") ?? read.string(invoice, "id"),
    amount: read.integer(invoice, "amount_paid"),
    currency: read.string(invoice, "currency").toUpperCase(),
    current_period_end: read.optionalTime(period, "end"),
  };
}

function paymentFailed(base: Envelope, type: string, object: Fields): GatewayEvent {
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

/** A Stripe Event as the neutral event it stands for (see docs/gateway-wire-formats.md). */
export function normalizeStripeEvent(payload: unknown): GatewayEvent {
  const event = read.record(payload, "the event");
  const type = read.string(event, "type");
  const base: Envelope = { gateway: "gateway_b", event_id: read.string(event, "id") };
  const object = read.record(read.record(event.data, "data").object, "data.object");
  switch (type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      return sessionCompleted(base, object);
    case "checkout.session.async_payment_failed":
      return {
        ...base,
        kind: "payment_failed",
        order_id: read.optionalString(object, "client_reference_id") ?? metadataOrderId(object),
        subscription_id: null,
        reason: "delayed payment failed",
      };
    case "invoice.paid":
      return invoicePaid(base, object);
    case "customer.subscription.deleted":
      return {
        ...base,
        kind: "cancelled",
        subscription_id: read.string(object, "id"),
        order_id: metadataOrderId(object),
      };
    case "charge.refunded":
      return {
        ...base,
        kind: "refunded",
        payment_id: read.id(object, "payment_intent"),
        order_id: metadataOrderId(object),
        // A charge reports everything refunded on it so far, not the refund that just happened.
        refund_id: null,
        amount: read.integer(object, "amount_refunded"),
        cumulative: true,
        currency: read.string(object, "currency").toUpperCase(),
      };
    case "invoice.payment_failed":
    case "payment_intent.payment_failed":
      return paymentFailed(base, type, object);
    default:
      return { ...base, kind: "ignored", type };
  }
}
