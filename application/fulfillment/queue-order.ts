import type { FulfillmentRecord } from "../../domain/fulfillment/fulfillment.ts";
import type { Order, OrderItem } from "../../domain/orders/order.ts";
import type { TransactionScope } from "../shared/unit-of-work.ts";
import { fulfillJob } from "./jobs.ts";

/**
 * The hand-over to fulfillment: one queued record per item and its job. Repeats create nothing
 * twice. Returns the records it created. Inside a payment job's transaction, the first item's job is
 * that job's follow-up: its worker delivers it next.
 */
export async function queueOrder(
  scope: TransactionScope,
  order: Order,
  items: readonly OrderItem[],
): Promise<readonly FulfillmentRecord[]> {
  const created = await scope.fulfillments.createQueued(order, items);
  for (const record of created) {
    await scope.jobs.enqueueFollowUp(fulfillJob({ fulfillment_id: record.id }));
  }
  return created;
}
