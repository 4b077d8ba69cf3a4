import type { FulfillmentRecord } from "../../domain/fulfillment/fulfillment.ts";
import type { Order, OrderItem } from "../../domain/orders/order.ts";
import type { SubscriptionFacts } from "../../domain/payments/gateway-event.ts";
import type { FulfillmentAction } from "../fulfillment/ports.ts";
import { FULFILL_JOB, FULFILLMENT_ACTION_JOB } from "../fulfillment/ports.ts";
import { orderEventData, orderItemsEventData } from "../shared/event-data.ts";
import type { TransactionScope } from "../shared/unit-of-work.ts";

/** The subscription records of an order's recurring items, created (or completed) from what the gateway said. */
export async function recordSubscriptions(
  scope: TransactionScope,
  order: Order,
  items: readonly OrderItem[],
  facts: SubscriptionFacts | null,
  now: Date,
): Promise<void> {
  for (const item of items) {
    if (item.billing_interval) await scope.subscriptions.upsertForItem({ order, item, facts, now });
  }
}

/**
 * The hand-over to fulfillment: one queued record per item and its job. Repeats create nothing
 * twice. Returns the records it created.
 */
export async function deliverOrder(
  scope: TransactionScope,
  order: Order,
  items: readonly OrderItem[],
): Promise<readonly FulfillmentRecord[]> {
  const created = await scope.fulfillments.createQueued(order, items);
  for (const record of created) {
    await scope.jobs.enqueue({
      kind: FULFILL_JOB,
      payload: { fulfillment_id: record.id },
      dedupeKey: `fulfill:${record.id}`,
    });
  }
  return created;
}

/**
 * Delivers a paid order and tells the shop's systems it was paid (`order.paid`): once, when its
 * delivery is first queued, however often a payment or an approval comes back to it. `order` is the
 * order as it stands in this transaction (the event carries it).
 */
export async function releasePaidOrder(scope: TransactionScope, order: Order, items: readonly OrderItem[]) {
  const queued = await deliverOrder(scope, order, items);
  if (queued.length === 0) return;
  await scope.events.publish("order.paid", { ...orderEventData(order), items: orderItemsEventData(items) });
}

/**
 * Suspends, resumes or cancels what an order (or one of its items) delivered, through the
 * fulfillment action job, so the adapter's call happens outside this transaction. `cause` keeps
 * two different causes of the same action apart (a dispute, then a second dispute).
 */
export async function actOnDeliveries(
  scope: TransactionScope,
  target: { order_id: string; order_item_id?: string },
  action: FulfillmentAction,
  reason: string,
  cause: string,
): Promise<void> {
  const records = await scope.fulfillments.list({ order_id: target.order_id }, { limit: 100 });
  for (const record of records.items) {
    if (target.order_item_id && record.order_item_id !== target.order_item_id) continue;
    await scope.jobs.enqueue({
      kind: FULFILLMENT_ACTION_JOB,
      payload: { fulfillment_id: record.id, action, reason },
      dedupeKey: `${action}:${record.id}:${cause}`,
    });
  }
}
