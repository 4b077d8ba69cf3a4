import { InvalidWebhookPayload } from "../../../domain/payments/errors.ts";
import type { GatewayEvent, PaymentPointer } from "../../../domain/payments/gateway-event.ts";
import type { ChargedAmount } from "../../../domain/payments/payment.ts";
import { isRecord } from "../../../domain/shared/is-record.ts";
import { type JsonObject, minorUnits, stringOrNull } from "./paddle-fields.ts";

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

/**
 * What the customer was charged: `grand_total` with `tax` in it, and before tax the `subtotal` less
 * `discount` (Paddle's totals, all strings of minor units).
 */
function chargedAmount(data: JsonObject): ChargedAmount {
  const totals = isRecord(data.details) && isRecord(data.details.totals) ? data.details.totals : {};
  const optional = (field: string) => (totals[field] === undefined ? 0 : requireAmount(totals[field], field));
  const amount = requireAmount(totals.grand_total, "data.details.totals.grand_total");
  const tax = optional("tax");
  const subtotal = totals.subtotal === undefined ? amount - tax : requireAmount(totals.subtotal, "subtotal");
  const discount = optional("discount");
  return {
    amount,
    tax,
    pre_tax: subtotal - discount,
    discount,
    currency: requireString(data.currency_code, "data.currency_code").toUpperCase(),
  };
}

/** A transaction is the payment: its id is what refunds, adjustments and chargebacks name. */
const transactionPointer = (id: string): PaymentPointer => ({ payment_id: id });

function transactionEvent({ event_id, event_type, data }: Envelope): GatewayEvent {
  const order_id = orderIdOf(data);
  if (data.origin === "subscription_recurring") {
    return {
      gateway,
      event_id,
      kind: "renewed",
      subscription_id: requireString(data.subscription_id, "data.subscription_id"),
      order_id,
      payment: transactionPointer(requireString(data.id, "data.id")),
      ...chargedAmount(data),
      current_period_end: periodEndOf(data),
    };
  }
  // A plan change billed at once (`prorated_immediately`, `full_immediately`); one a credit
  // covered whole moved no money.
  if (data.origin === "subscription_update") {
    const charged = chargedAmount(data);
    if (charged.amount === 0) return { gateway, event_id, kind: "ignored", type: event_type };
    return {
      gateway,
      event_id,
      kind: "prorated",
      subscription_id: requireString(data.subscription_id, "data.subscription_id"),
      order_id,
      payment: transactionPointer(requireString(data.id, "data.id")),
      ...charged,
    };
  }
  // Another integration on the same Paddle account: acknowledged, so Paddle does not retry it for days.
  if (order_id === null) {
    return { gateway, event_id, kind: "ignored", type: event_type, not_ours: "the transaction names no order" };
  }
  const subscription_id = stringOrNull(data.subscription_id);
  return {
    gateway,
    event_id,
    kind: "paid",
    order_id,
    payment: transactionPointer(requireString(data.id, "data.id")),
    ...chargedAmount(data),
    // A transaction does not say when a trial ends; the subscription itself does (getSubscription).
    subscription: subscription_id
      ? { subscription_id, trial_ends_at: null, current_period_end: periodEndOf(data) }
      : null,
  };
}

/** Paddle's dispute outcomes as adjustments: a chargeback takes the money, its reversal gives it back. */
const CHARGEBACK_KINDS = { chargeback: "dispute_opened", chargeback_reverse: "dispute_won" } as const;

function adjustmentEvent({ event_id, event_type, data }: Envelope): GatewayEvent {
  const totals = isRecord(data.totals) ? data.totals : {};
  const payment = transactionPointer(requireString(data.transaction_id, "data.transaction_id"));
  const action = String(data.action);
  if (data.status === "approved" && (action === "chargeback" || action === "chargeback_reverse")) {
    return {
      gateway,
      event_id,
      kind: CHARGEBACK_KINDS[action],
      payment,
      order_id: null,
      // A reversal is an adjustment of its own: the transaction names the dispute both belong to.
      dispute_id: `chargeback:${payment.payment_id}`,
      amount: requireAmount(totals.total, "data.totals.total"),
      currency: requireString(totals.currency_code, "data.totals.currency_code").toUpperCase(),
    };
  }
  if (action !== "refund" || data.status !== "approved") {
    return { gateway, event_id, kind: "ignored", type: event_type };
  }
  return {
    gateway,
    event_id,
    kind: "refunded",
    payment,
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

const subscriptionEvent =
  (kind: "cancelled" | "subscription_updated") =>
  ({ event_id, data }: Envelope): GatewayEvent => ({
    gateway,
    event_id,
    kind,
    subscription_id: requireString(data.id, "data.id"),
    order_id: orderIdOf(data),
  });

/**
 * The event types the marketplace acts on, each with how it reads; any other type is stored and
 * ignored. The webhook's API document lists these keys, so a type added here is documented too.
 */
const ACTED_ON: Readonly<Record<string, (envelope: Envelope) => GatewayEvent>> = {
  "transaction.completed": transactionEvent,
  "transaction.paid": transactionEvent,
  "transaction.payment_failed": ({ event_id, data }) => ({
    gateway,
    event_id,
    kind: "payment_failed",
    order_id: orderIdOf(data),
    subscription_id: stringOrNull(data.subscription_id),
    reason: failureReason(data),
  }),
  "subscription.updated": subscriptionEvent("subscription_updated"),
  "subscription.canceled": subscriptionEvent("cancelled"),
  "adjustment.created": adjustmentEvent,
  "adjustment.updated": adjustmentEvent,
};

export const PADDLE_EVENT_TYPES_ACTED_ON: readonly string[] = Object.keys(ACTED_ON);

/** One Paddle notification as the neutral event the marketplace acts on (wire formats, gateway_a). */
export function normalizePaddleEvent(payload: unknown): GatewayEvent {
  if (!isRecord(payload)) throw new InvalidWebhookPayload("not a JSON object");
  const { event_id, event_type, data } = payload;
  if (typeof event_id !== "string" || event_id === "") throw new InvalidWebhookPayload("event_id is missing");
  if (typeof event_type !== "string" || event_type === "") throw new InvalidWebhookPayload("event_type is missing");
  if (!isRecord(data)) throw new InvalidWebhookPayload("data is not an object");
  const normalize = Object.hasOwn(ACTED_ON, event_type) ? ACTED_ON[event_type] : undefined;
  return normalize
    ? normalize({ event_id, event_type, data })
    : { gateway, event_id, kind: "ignored", type: event_type };
}
