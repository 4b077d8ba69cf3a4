import type { RefundResult, RemoteSubscription } from "../../../application/payments/ports.ts";
import { UpstreamBadResponse } from "../../../application/shared/errors.ts";
import type { BillingInterval } from "../../../domain/catalog/pricing.ts";
import { isRecord } from "../../../domain/shared/is-record.ts";
import { nullableString } from "./paddle-fields.ts";

const bad = (reason: string): never => {
  throw new UpstreamBadResponse("gateway", reason);
};

/** The transaction a checkout opens: its id and the hosted checkout URL. */
export function readCheckoutTransaction(value: unknown): { id: string; url: string } {
  if (!isRecord(value) || typeof value.id !== "string") return bad("the transaction lacks an id");
  const url = isRecord(value.checkout) ? value.checkout.url : undefined;
  if (typeof url !== "string" || !URL.canParse(url)) return bad("the transaction has no checkout.url");
  return { id: value.id, url };
}

/** A partial refund names one line item of the transaction; the first one will do. */
export function readFirstLineItemId(value: unknown): string {
  const details = isRecord(value) && isRecord(value.details) ? value.details : bad("the transaction lacks details");
  const first = Array.isArray(details.line_items) ? details.line_items[0] : undefined;
  if (!isRecord(first) || typeof first.id !== "string") return bad("the transaction has no line item");
  return first.id;
}

const REFUND_STATUSES: Readonly<Record<string, RefundResult["status"]>> = {
  approved: "succeeded",
  pending_approval: "pending",
  rejected: "failed",
};

export function readRefundAdjustment(value: unknown): RefundResult {
  if (!isRecord(value) || typeof value.id !== "string") return bad("the adjustment lacks an id");
  const status = typeof value.status === "string" ? REFUND_STATUSES[value.status] : undefined;
  if (status === undefined) return bad("the adjustment has an unknown status");
  return { refund_id: value.id, status };
}

function trialEnd(items: unknown): string | null | undefined {
  const first = Array.isArray(items) ? items[0] : undefined;
  if (!isRecord(first) || !isRecord(first.trial_dates)) return null;
  return nullableString(first.trial_dates.ends_at);
}

const CYCLES: Readonly<Record<string, BillingInterval>> = { month: "monthly", year: "yearly" };

/** The first item's price and the subscription's billing cycle (one a variant does not sell is null). */
function billedPrice(
  value: Readonly<Record<string, unknown>>,
): Pick<RemoteSubscription, "price_id" | "billing_interval"> {
  const first = Array.isArray(value.items) ? value.items[0] : undefined;
  const price = isRecord(first) && isRecord(first.price) ? first.price : undefined;
  const cycle = isRecord(value.billing_cycle) ? value.billing_cycle : undefined;
  const interval =
    cycle && cycle.frequency === 1 && typeof cycle.interval === "string" ? CYCLES[cycle.interval] : undefined;
  return { price_id: price && typeof price.id === "string" ? price.id : null, billing_interval: interval ?? null };
}

/** A Paddle `Subscription` in the marketplace's terms; the status is Paddle's own word. */
export function readPaddleSubscription(value: unknown): RemoteSubscription {
  if (!isRecord(value) || typeof value.id !== "string" || typeof value.status !== "string") {
    return bad("the subscription lacks id or status");
  }
  const period = value.current_billing_period;
  if (period !== null && period !== undefined && !isRecord(period)) {
    return bad("current_billing_period is not an object");
  }
  const periodEnd = isRecord(period) ? nullableString(period.ends_at) : null;
  const canceledAt = nullableString(value.canceled_at);
  const trialEndsAt = value.status === "trialing" ? trialEnd(value.items) : null;
  if (periodEnd === undefined || canceledAt === undefined || trialEndsAt === undefined) {
    return bad("a subscription date is not a string");
  }
  const scheduled = value.scheduled_change;
  if (scheduled !== null && scheduled !== undefined && !isRecord(scheduled)) {
    return bad("scheduled_change is not an object");
  }
  return {
    subscription_id: value.id,
    status: value.status,
    customer_id: typeof value.customer_id === "string" ? value.customer_id : null,
    trial_ends_at: trialEndsAt,
    current_period_end: periodEnd,
    cancelled_at: canceledAt,
    // Paddle has no flag: a pending cancellation is the scheduled change.
    cancel_at_period_end: isRecord(scheduled) && scheduled.action === "cancel",
    ...billedPrice(value),
  };
}
