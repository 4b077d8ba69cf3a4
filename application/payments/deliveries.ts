import type { FulfillmentRecord } from "../../domain/fulfillment/fulfillment.ts";
import type { Order, OrderItem } from "../../domain/orders/order.ts";
import type { SubscriptionFacts } from "../../domain/payments/gateway-event.ts";
import { fulfillJob } from "../fulfillment/jobs.ts";
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
    await scope.jobs.enqueue(fulfillJob({ fulfillment_id: record.id }));
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
