import type { Order, OrderItem } from "../../domain/orders/order.ts";
import { orderEventData, orderItemsEventData } from "../shared/event-data.ts";
import type { TransactionScope } from "../shared/unit-of-work.ts";
import type { OrderFulfillment } from "./fulfillment-ports.ts";

/**
 * Hands a paid order to fulfillment and tells the shop's systems it was paid (`order.paid`): once,
 * when its delivery is first queued, however often a payment or an approval comes back to it.
 * `order` is the order as it stands in this transaction (the event carries it).
 */
export async function releasePaidOrder(
  scope: TransactionScope,
  fulfillment: Pick<OrderFulfillment, "queueOrder">,
  order: Order,
  items: readonly OrderItem[],
) {
  const queued = await fulfillment.queueOrder(scope, order, items);
  if (queued.length === 0) return;
  await scope.events.publish("order.paid", { ...orderEventData(order), items: orderItemsEventData(items) });
}
