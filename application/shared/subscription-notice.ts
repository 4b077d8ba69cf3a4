import type { SubscriptionRecord } from "../fulfillment/subscription-ports.ts";
import { notifyJob } from "../notifications/jobs.ts";
import type { SubscriptionNoticeKind } from "../notifications/ports.ts";
import { subscriptionEventData } from "./event-data.ts";
import type { TransactionScope } from "./unit-of-work.ts";

/** Kinds whose outgoing event is published here; a renewal's event is published with its payment. */
const PUBLISHED_HERE: ReadonlySet<SubscriptionNoticeKind> = new Set([
  "subscription.payment_failed",
  "subscription.trial_ending",
]);

/**
 * Tells the subscriber, and the shop's systems, about something that happened to a subscription,
 * in the caller's transaction: a notification (listed for the customer and emailed) and the
 * outgoing event of the same name. `occurrence` names what happened (a gateway event, a payment,
 * a trial's end): whichever event or tick reports it again, it is told once.
 */
export async function noticeSubscription(
  scope: TransactionScope,
  kind: SubscriptionNoticeKind,
  subscription: SubscriptionRecord,
  occurrence: string,
  details: Readonly<Record<string, unknown>> = {},
): Promise<void> {
  const outboxId = await scope.outbox.addOnce(
    kind,
    {
      subscription_id: subscription.id,
      order_id: subscription.order_id,
      order_item_id: subscription.order_item_id,
      customer_id: subscription.customer_id,
      ...details,
    },
    `${kind}:${subscription.id}:${occurrence}`,
  );
  if (outboxId === undefined) return;
  await scope.jobs.enqueue(notifyJob({ outbox_id: outboxId }));
  if (PUBLISHED_HERE.has(kind)) {
    await scope.events.publish(kind as "subscription.payment_failed" | "subscription.trial_ending", {
      ...subscriptionEventData(subscription),
      ...details,
    });
  }
}
