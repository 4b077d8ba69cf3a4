import { newGatewayId } from "../ids.ts";
import { StripeError } from "./errors.ts";
import { addIntervalUnix, type SessionLine, type StripeSubscription } from "./model.ts";
import type { SessionInput } from "./session-request.ts";

/**
 * The subscription a paid subscription-mode session starts at `start` (unix seconds): trialing
 * until the trial ends when the session asked for one, else active for the first interval.
 */
export function newSubscription(
  input: SessionInput,
  currency: string,
  start: number,
  invoice: string,
): { subscription: StripeSubscription; lines: readonly SessionLine[] } {
  const lines = input.lines.filter((line) => line.price.recurring !== null);
  const first = lines[0]?.price.recurring;
  if (!first) throw new StripeError(500, "api_error", "A subscription session without recurring lines.");
  const trialEnd = input.trial_period_days ? start + input.trial_period_days * 86_400 : null;
  const subscription: StripeSubscription = {
    id: newGatewayId("sub"),
    object: "subscription",
    status: trialEnd ? "trialing" : "active",
    currency,
    current_period_start: start,
    current_period_end: trialEnd ?? addIntervalUnix(start, first.interval, first.interval_count),
    trial_start: trialEnd ? start : null,
    trial_end: trialEnd,
    cancel_at_period_end: false,
    canceled_at: null,
    ended_at: null,
    metadata: input.subscription_metadata,
    items: {
      object: "list",
      data: lines.map((line) => ({
        id: newGatewayId("si"),
        object: "subscription_item",
        price: line.price,
        quantity: line.quantity,
      })),
    },
    latest_invoice: invoice,
    created: start,
    livemode: false,
  };
  return { subscription, lines };
}
