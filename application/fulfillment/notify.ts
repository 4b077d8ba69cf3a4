import type { FulfillmentRecord } from "../../domain/fulfillment/fulfillment.ts";
import { notifyJob } from "../notifications/jobs.ts";
import type { FulfillmentNoticeKind } from "../notifications/ports.ts";
import { fulfillmentEventData } from "../shared/event-data.ts";
import type { TransactionScope } from "../shared/unit-of-work.ts";

/**
 * Writes the notification to the outbox and schedules its delivery, and publishes the same
 * `fulfillment.*` event for the shop's systems (ready and failed), in the caller's transaction.
 * Inside a fulfill job's transaction, the notification is that job's follow-up.
 */
export async function notify(scope: TransactionScope, kind: FulfillmentNoticeKind, record: FulfillmentRecord) {
  const outboxId = await scope.outbox.add(kind, {
    fulfillment_id: record.id,
    order_id: record.order_id,
    order_item_id: record.order_item_id,
    customer_id: record.customer_id,
    driver: record.driver,
    status: record.status,
    last_error: record.last_error,
  });
  await scope.jobs.enqueueFollowUp(notifyJob({ outbox_id: outboxId }));
  if (kind !== "fulfillment.action_required") await scope.events.publish(kind, fulfillmentEventData(record));
}
