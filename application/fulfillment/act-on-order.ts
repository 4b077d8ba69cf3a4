import { fulfillmentActionJob } from "../fulfillment/jobs.ts";
import type { FulfillmentAction } from "../fulfillment/ports.ts";
import type { TransactionScope } from "../shared/unit-of-work.ts";

/**
 * Suspends, resumes, renews or cancels what an order (or one of its items) received, through the
 * fulfillment action job, so the adapter's call happens outside this transaction. `cause` keeps
 * two different causes of the same action apart (a dispute, then a second dispute).
 */
export async function actOnOrder(
  scope: TransactionScope,
  target: { order_id: string; order_item_id?: string },
  action: FulfillmentAction,
  reason: string,
  cause: string,
): Promise<void> {
  const records = await scope.fulfillments.list({ order_id: target.order_id }, { limit: 100 });
  for (const record of records.items) {
    if (target.order_item_id && record.order_item_id !== target.order_item_id) continue;
    await scope.jobs.enqueue(fulfillmentActionJob({ fulfillment_id: record.id, action, reason, cause }));
  }
}
