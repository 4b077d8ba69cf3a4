import type { Static } from "elysia";
import type { OpsTask } from "../../application/fulfillment/ports.ts";
import type { JobRecord } from "../../application/shared/jobs.ts";
import type { FulfillmentRecord } from "../../domain/fulfillment/fulfillment.ts";
import type { FulfillmentSchema, JobSchema, OpsTaskSchema } from "./fulfillment-schemas.ts";

export function toFulfillmentBody(record: FulfillmentRecord): Static<typeof FulfillmentSchema> {
  return {
    id: record.id,
    order_id: record.order_id,
    order_item_id: record.order_item_id,
    product_id: record.product_id,
    driver: record.driver,
    status: record.status,
    attempts: record.attempts,
    last_error: record.last_error,
    external_reference_id: record.external_reference_id,
    external_workspace_url: record.external_workspace_url,
    external_customer_id: record.external_customer_id,
    external_status: record.external_status,
    created_at: record.created_at.toISOString(),
    updated_at: record.updated_at.toISOString(),
  };
}

export const toTaskBody = (task: OpsTask): Static<typeof OpsTaskSchema> => ({
  ...task,
  due_at: task.due_at.toISOString(),
  completed_at: task.completed_at?.toISOString() ?? null,
  created_at: task.created_at.toISOString(),
});

export const toJobBody = (job: JobRecord): Static<typeof JobSchema> => ({
  ...job,
  run_at: job.run_at.toISOString(),
  created_at: job.created_at.toISOString(),
  updated_at: job.updated_at.toISOString(),
});
