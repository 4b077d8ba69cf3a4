import { InvalidWebhookPayload } from "../../../application/payments/ports.ts";
import type { GatewayEvent } from "../../../domain/payments/gateway-event.ts";
import { isRecord, type JsonObject, minorUnits, stringOrNull } from "./json-guards.ts";

const gateway = "gateway_a";

interface Envelope {
  readonly event_id: string;
  readonly event_type: string;
  readonly data: JsonObject;
}

function requireString(value: unknown, field: string): string {
  if (typeof value !== "string" || value === "") throw new InvalidWebhookPayload(`${field} is missing`);
  return value;
}

function requireAmount(value: unknown, field: string): number {
  const amount = minorUnits(value);
  if (amount === undefined) throw new InvalidWebhookPayload(`${field} is not an amount in minor units`);
  return amount;
}

const orderIdOf = (data: JsonObject) => (isRecord(data.custom_data) ? stringOrNull(data.custom_data.order_id) : null);
const periodEndOf = (data: JsonObject) =>
  isRecord(data.billing_period) ? stringOrNull(data.billing_period.ends_at) : null;

function transactionEvent({ event_id, data }: Envelope): GatewayEvent {
  const payment_id = requireString(data.id, "data.id");
  const totals = isRecord(data.details) && isRecord(data.details.totals) ? data.details.totals : {};
  const amount = requireAmount(totals.grand_total, "data.details.totals.grand_total");
  const currency = requireString(data.currency_code, "data.currency_code").toUpperCase();
  const subscription_id = stringOrNull(data.subscription_id);
  const current_period_end = periodEndOf(data);
  if (data.origin === "subscription_recurring") {
    return {
      gateway,
      event_id,
      kind: "renewed",
      subscription_id: requireString(data.subscription_id, "data.subscription_id"),
      order_id: orderIdOf(data),
      payment_id,
      amount,
      currency,
      current_period_end,
    };
  }
  const order_id = orderIdOf(data);
  if (order_id === null) throw new InvalidWebhookPayload("data.custom_data.order_id is missing");
  return {
    gateway,
    event_id,
    kind: "paid",
    order_id,
    payment_id,
    amount,
    currency,
    // A transaction does not say when a trial ends; the subscription itself does (getSubscription).
    subscription: subscription_id ? { subscription_id, trial_ends_at: null, current_period_end } : null,
  };
}

function adjustmentEvent({ event_id, event_type, data }: Envelope): GatewayEvent {
  if (data.action !== "refund" || data.status !== "approved") {
    return { gateway, event_id, kind: "ignored", type: event_type };
  }
  const totals = isRecord(data.totals) ? data.totals : {};
  return {
    gateway,
    event_id,
    kind: "refunded",
    payment_id: requireString(data.transaction_id, "data.transaction_id"),
    order_id: null,
    refund_id: requireString(data.id, "data.id"),
    amount: requireAmount(totals.total, "data.totals.total"),
    cumulative: false,
    currency: requireString(totals.currency_code, "data.totals.currency_code").toUpperCase(),
  };
}

function failureReason(data: JsonObject): string {
  const payments = Array.isArray(data.payments) ? data.payments : [];
  for (const payment of payments) {
    if (isRecord(payment) && typeof payment.error_code === "string") return payment.error_code;
  }
  return "payment_failed";
}

/** One Paddle notification as the neutral event the marketplace acts on (wire formats, gateway_a). */
export function normalizePaddleEvent(payload: unknown): GatewayEvent {
  if (!isRecord(payload)) throw new InvalidWebhookPayload("not a JSON object");
  const { event_id, event_type, data } = payload;
  if (typeof event_id !== "string" || event_id === "") throw new InvalidWebhookPayload("event_id is missing");
  if (typeof event_type !== "string" || event_type === "") throw new InvalidWebhookPayload("event_type is missing");
  if (!isRecord(data)) throw new InvalidWebhookPayload("data is not an object");
  const envelope: Envelope = { event_id, event_type, data };

  switch (event_type) {
    case "transaction.completed":
    case "transaction.paid":
      return transactionEvent(envelope);
    case "subscription.canceled":
      return {
        gateway,
        event_id,
        kind: "cancelled",
        subscription_id: requireString(data.id, "data.id"),
        order_id: orderIdOf(data),
      };
    case "adjustment.created":
    case "adjustment.updated":
      return adjustmentEvent(envelope);
    case "transaction.payment_failed":
      return {
        gateway,
        event_id,
        kind: "payment_failed",
        order_id: orderIdOf(data),
        subscription_id: stringOrNull(data.subscription_id),
        reason: failureReason(data),
      };
    default:
      return { gateway, event_id, kind: "ignored", type: event_type };
  }
}
