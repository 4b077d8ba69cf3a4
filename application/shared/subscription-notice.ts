import type { SubscriptionRecord } from "../fulfillment/subscription-ports.ts";
import { notifyJob } from "../notifications/jobs.ts";
import type { SubscriptionNoticeKind } from "../notifications/ports.ts";
import { subscriptionEventData } from "./event-data.ts";
import type { TransactionScope } from "./unit-of-work.ts";

/** Kinds whose outgoing event is published here; a renewal's event is published with its payment. */
const PUBLISHED_HERE: ReadonlySet<SubscriptionNoticeKind> = new Set([
  "subscription.payment_failed",
  "subscription.trial_ending",
  "subscription.plan_changed",
]);

/** The notice's once-key; subscription-repository.ts's `trialsEnding` writes the same text in SQL. */
export const noticeKey = (kind: SubscriptionNoticeKind, subscription: SubscriptionRecord, occurrence: string) =>
  `${kind}:${subscription.gateway}:${subscription.gateway_subscription_id ?? subscription.id}:${occurrence}`;

/** A subscription has one trial: its end is told once, whichever gateway event or tick finds it. */
export const TRIAL_OCCURRENCE = "trial";

/**
 * Tells the subscriber, and the shop's systems, about something that happened to a subscription,
 * in the caller's transaction: a notification (listed for the customer and emailed) and the
 * outgoing event of the same name. `occurrence` names what happened (a gateway event, a payment,
 * the trial): whichever event or tick reports it again, it is told once. It is told once per
 * gateway subscription too, which bills every recurring item of an order together.
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
    noticeKey(kind, subscription, occurrence),
  );
  if (outboxId === undefined) return;
  await scope.jobs.enqueue(notifyJob({ outbox_id: outboxId }));
  if (PUBLISHED_HERE.has(kind)) {
    await scope.events.publish(
      kind as "subscription.payment_failed" | "subscription.trial_ending" | "subscription.plan_changed",
      {
        ...subscriptionEventData(subscription),
        ...details,
      },
    );
  }
}
