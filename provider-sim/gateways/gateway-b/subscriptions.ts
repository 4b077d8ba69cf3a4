import { newGatewayId } from "../ids.ts";
import { StripeError } from "./errors.ts";
import { addIntervalUnix, type Period, periodOf, type SessionLine, type StripeSubscription } from "./model.ts";
import type { SessionInput } from "./session-request.ts";
import { cancellationDetails, planOf, subscriptionDefaults } from "./subscription-defaults.ts";

/**
 * The subscription a paid subscription-mode session starts at `start` (unix seconds): trialing
 * until the trial ends when the session asked for one, else active for the first interval.
 */
export function newSubscription(
  input: SessionInput,
  currency: string,
  start: number,
  customer: string,
): { subscription: StripeSubscription; lines: readonly SessionLine[] } {
  const lines = input.lines.filter((line) => line.price.recurring !== null);
  const first = lines[0]?.price.recurring;
  if (!first) throw new StripeError(500, "api_error", "A subscription session without recurring lines.");
  const trialEnd = input.trial_period_days ? start + input.trial_period_days * 86_400 : null;
  const end = trialEnd ?? addIntervalUnix(start, first.interval, first.interval_count);
  const id = newGatewayId("sub");
  const subscription: StripeSubscription = {
    id,
    object: "subscription",
    ...subscriptionDefaults(start),
    status: trialEnd ? "trialing" : "active",
    billing_cycle_anchor: end,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: cancellationDetails(null),
    collection_method: "charge_automatically",
    currency,
    customer,
    ended_at: null,
    items: {
      object: "list",
      data: lines.map((line) => ({
        id: newGatewayId("si"),
        object: "subscription_item",
        billing_thresholds: null,
        created: start,
        current_trial: null,
        current_period_start: start,
        current_period_end: end,
        discounts: [],
        metadata: {},
        plan: planOf(line.price),
        price: line.price,
        quantity: line.quantity,
        subscription: id,
        tax_rates: [],
      })),
      has_more: false,
      url: `/v1/subscription_items?subscription=${id}`,
    },
    latest_invoice: null,
    metadata: input.subscription_metadata,
    start_date: start,
    trial_start: trialEnd ? start : null,
    trial_end: trialEnd,
    created: start,
    livemode: false,
  };
  return { subscription, lines };
}

/** The period after the current one, by the first item's recurring interval. */
export function nextPeriod(subscription: StripeSubscription): Period {
  const { end } = periodOf(subscription);
  const recurring = subscription.items.data[0]?.price.recurring;
  return { start: end, end: recurring ? addIntervalUnix(end, recurring.interval, recurring.interval_count) : end };
}

export function withPeriod(subscription: StripeSubscription, period: Period): StripeSubscription {
  return {
    ...subscription,
    items: {
      ...subscription.items,
      data: subscription.items.data.map((item) => ({
        ...item,
        current_period_start: period.start,
        current_period_end: period.end,
      })),
    },
  };
}

/**
 * `cancel_at_period_end`: setting it also sets `cancel_at` to the period end and `canceled_at` to
 * the time of the request, as Stripe does; clearing it clears all three.
 */
export function withCancelAtPeriodEnd(subscription: StripeSubscription, on: boolean, now: number): StripeSubscription {
  return {
    ...subscription,
    cancel_at_period_end: on,
    cancel_at: on ? periodOf(subscription).end : null,
    canceled_at: on ? now : null,
    cancellation_details: cancellationDetails(on ? "cancellation_requested" : null),
  };
}

/** Ended at `endedAt`; `canceled_at` keeps the time the cancellation was asked for when there was one. */
export function ended(subscription: StripeSubscription, endedAt: number): StripeSubscription {
  return {
    ...subscription,
    status: "canceled",
    canceled_at: subscription.canceled_at ?? endedAt,
    ended_at: endedAt,
    cancellation_details: cancellationDetails("cancellation_requested"),
  };
}
