import { newGatewayId } from "../ids.ts";
import { addCycle, type PaddleProduct, type PaddleSubscription, type Period } from "./model.ts";
import type { PaddleTransaction } from "./transaction-model.ts";

export interface CustomerIds {
  readonly customer_id: string;
  readonly address_id: string;
}

/** The subscription a paid checkout starts when it has recurring lines: trialing when a line has a trial. */
export function startSubscription(
  transaction: PaddleTransaction,
  at: Date,
  customer: CustomerIds,
): PaddleSubscription | undefined {
  const recurring = transaction.items
    .map((item, i) => ({ ...item, product: transaction.details.line_items[i]?.product as PaddleProduct }))
    .filter((item) => item.price.billing_cycle !== null);
  const first = recurring[0];
  if (!first?.price.billing_cycle) return undefined;
  const trial = recurring.find((item) => item.price.trial_period !== null)?.price.trial_period ?? null;
  const now = at.toISOString();
  const ends = (trial ? addCycle(at, trial) : addCycle(at, first.price.billing_cycle)).toISOString();
  const period = { starts_at: now, ends_at: ends };
  return {
    id: newGatewayId("sub"),
    status: trial ? "trialing" : "active",
    ...customer,
    business_id: null,
    currency_code: transaction.currency_code,
    created_at: now,
    updated_at: now,
    started_at: now,
    first_billed_at: trial ? null : now,
    next_billed_at: ends,
    paused_at: null,
    canceled_at: null,
    discount: null,
    collection_mode: "automatic",
    billing_details: null,
    billing_cycle: first.price.billing_cycle,
    current_billing_period: period,
    scheduled_change: null,
    management_urls: null,
    items: recurring.map((item) => ({
      status: trial ? "trialing" : "active",
      quantity: item.quantity,
      recurring: true,
      created_at: now,
      updated_at: now,
      previously_billed_at: trial ? null : now,
      next_billed_at: ends,
      trial_dates: trial ? period : null,
      price: item.price,
      product: item.product,
    })),
    custom_data: transaction.custom_data,
  };
}

/** The next billing period, one billing cycle after the current one. */
export function nextPeriod(subscription: PaddleSubscription, now: string): Period {
  const starts = new Date(subscription.current_billing_period?.ends_at ?? now);
  return { starts_at: starts.toISOString(), ends_at: addCycle(starts, subscription.billing_cycle).toISOString() };
}

/** Billed for `period` at `at`: the period moves whether or not the payment is collected, as at Paddle. */
export function billedFor(
  subscription: PaddleSubscription,
  period: Period,
  at: string,
  status: "active" | "past_due",
): PaddleSubscription {
  return {
    ...subscription,
    status,
    first_billed_at: subscription.first_billed_at ?? at,
    next_billed_at: period.ends_at,
    current_billing_period: period,
    items: subscription.items.map((item) => ({
      ...item,
      status: "active",
      updated_at: at,
      previously_billed_at: at,
      next_billed_at: period.ends_at,
    })),
    updated_at: at,
  };
}

/** Canceled at `at`; the billing period and next billing date go, as at Paddle. */
export function canceled(subscription: PaddleSubscription, at: string): PaddleSubscription {
  return {
    ...subscription,
    status: "canceled",
    canceled_at: at,
    next_billed_at: null,
    current_billing_period: null,
    scheduled_change: null,
    items: subscription.items.map((item) => ({ ...item, status: "inactive", next_billed_at: null, updated_at: at })),
    updated_at: at,
  };
}
