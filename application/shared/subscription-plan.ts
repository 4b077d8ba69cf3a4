import type { BillingInterval } from "../../domain/catalog/pricing.ts";
import type { SubscriptionRecord } from "../fulfillment/subscription-ports.ts";
import type { OrderFulfillment } from "../payments/fulfillment-ports.ts";
import type { RemoteSubscription } from "../payments/ports.ts";
import { noticeSubscription } from "./subscription-notice.ts";
import type { TransactionScope } from "./unit-of-work.ts";

/** What the gateway bills a subscription now, as the marketplace reads it. */
export interface GatewayPlan {
  readonly remote: RemoteSubscription;
  /** Whether the product still sells the variant the gateway bills (an active price of it). */
  readonly for_sale: boolean;
}

/**
 * Brings a subscription's record to the plan its gateway bills: a change made through the API, in
 * the gateway's portal or in its dashboard arrives here alike. The record takes the new interval
 * and the gateway's period; the delivery follows the period (a license's expiry, a tenant's
 * plan); the subscriber and the shop's systems are told once per change (`occurrence`). A price
 * billed at an interval no variant sells, or one the product no longer sells, is put before a
 * person. Returns whether the plan changed.
 */
export async function followGatewayPlan(
  scope: TransactionScope,
  fulfillment: OrderFulfillment,
  subscription: SubscriptionRecord,
  plan: GatewayPlan,
  occurrence: string,
): Promise<boolean> {
  const { remote } = plan;
  const interval: BillingInterval | null = remote.billing_interval;
  if (interval === null) {
    await scope.orders.flagForAttention(
      subscription.order_id,
      `the gateway bills subscription ${remote.subscription_id} with price ${remote.price_id ?? "(none)"}, at an interval no variant sells; the delivery is unchanged`,
    );
    return false;
  }
  if (interval === subscription.billing_interval) return false;
  if (!plan.for_sale) {
    await scope.orders.flagForAttention(
      subscription.order_id,
      `the gateway moved subscription ${remote.subscription_id} to price ${remote.price_id ?? "(none)"} (${interval}), which the product does not sell`,
    );
  }
  const end = remote.current_period_end ? new Date(remote.current_period_end) : null;
  await scope.subscriptions.update(subscription.id, {
    billing_interval: interval,
    // A change moves the period where the gateway put it (an interval change starts a new one).
    ...(end ? { current_period_end: end } : {}),
    pending: null,
  });
  const changed = (await scope.subscriptions.find(subscription.id)) ?? subscription;
  if (changed.status !== "cancelled") {
    await fulfillment.actOnOrder(scope, changed, "change_plan", `plan changed to ${interval}`, occurrence);
  }
  await noticeSubscription(scope, "subscription.plan_changed", changed, occurrence, {
    from: subscription.billing_interval,
    to: interval,
    current_period_end: changed.current_period_end?.toISOString() ?? null,
  });
  return true;
}
