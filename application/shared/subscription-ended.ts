import type { SubscriptionRecord } from "../fulfillment/subscription-ports.ts";
import { subscriptionEventData } from "./event-data.ts";
import type { TransactionScope } from "./unit-of-work.ts";

/**
 * Records a subscription as ended and tells the shop's systems (`subscription.cancelled`), once:
 * one already cancelled (the shop ended it, then the gateway's event about it arrives) is left as
 * it is.
 */
export async function recordSubscriptionEnded(
  scope: TransactionScope,
  subscription: SubscriptionRecord,
  at: Date,
): Promise<void> {
  if (subscription.status === "cancelled") return;
  await scope.subscriptions.update(subscription.id, { status: "cancelled", cancelled_at: at });
  const ended = (await scope.subscriptions.find(subscription.id)) ?? subscription;
  await scope.events.publish("subscription.cancelled", subscriptionEventData(ended));
}
