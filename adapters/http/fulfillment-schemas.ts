import { t } from "elysia";
import type { OpsTask } from "../../application/fulfillment/ports.ts";
import type { NotificationKind } from "../../application/notifications/ports.ts";
import type { JobState } from "../../application/shared/jobs.ts";
import { FULFILLMENT_STATUSES } from "../../domain/fulfillment/fulfillment.ts";
import { Int } from "../../kit/schema-types.ts";
import { DriverSchema } from "./catalog-schemas.ts";
import { named } from "./openapi-models.ts";
import { everyOf, oneOf, Time, Uuid } from "./shared-schemas.ts";

const Payload = t.Record(t.String(), t.Unknown());

export const FulfillmentStatusSchema = named("FulfillmentStatus", oneOf(FULFILLMENT_STATUSES));

/** The delivery of one order item through its driver. */
export const FulfillmentSchema = named(
  "Fulfillment",
  t.Object({
    id: Uuid,
    order_id: Uuid,
    order_item_id: Uuid,
    product_id: Uuid,
    driver: DriverSchema,
    status: FulfillmentStatusSchema,
    attempts: Int({ minimum: 0 }),
    last_error: t.Nullable(t.String()),
    external_reference_id: t.Nullable(t.String()),
    external_workspace_url: t.Nullable(t.String()),
    external_customer_id: t.Nullable(t.String()),
    external_status: t.Nullable(t.String({ description: "What the external system says, apart from `status`" })),
    created_at: Time,
    updated_at: Time,
  }),
);

/** Work for the operations team: a manual delivery or a dedicated installation. */
export const OpsTaskSchema = named(
  "OpsTask",
  t.Object({
    id: Uuid,
    fulfillment_record_id: Uuid,
    kind: everyOf<OpsTask["kind"]>()(["manual_fulfillment", "provisioning"]),
    queue_id: t.String(),
    instructions: t.String(),
    due_at: Time,
    status: everyOf<OpsTask["status"]>()(["open", "completed", "cancelled"]),
    result: t.Nullable(Payload),
    completed_at: t.Nullable(Time),
    created_at: Time,
  }),
);

export const JobSchema = named(
  "Job",
  t.Object({
    id: t.String({ pattern: "^[0-9]+$", description: "A job's id is a number, written as a string" }),
    kind: t.String(),
    payload: Payload,
    state: everyOf<JobState>()(["pending", "running", "done", "dead"]),
    attempts: Int({ minimum: 0 }),
    max_attempts: Int({ minimum: 1 }),
    run_at: Time,
    last_error: t.Nullable(t.String()),
    created_at: Time,
    updated_at: Time,
  }),
);

export const NotificationSchema = named(
  "Notification",
  t.Object({
    id: Uuid,
    customer_id: Uuid,
    kind: everyOf<NotificationKind>()([
      "fulfillment.ready",
      "fulfillment.failed",
      "fulfillment.action_required",
      "subscription.payment_failed",
      "subscription.trial_ending",
      "subscription.renewed",
      "license.suspended",
      "license.reinstated",
      "license.reissued",
      "subscription.plan_changed",
    ]),
    title: t.String(),
    body: t.String(),
    data: Payload,
    created_at: Time,
    read_at: t.Nullable(Time),
  }),
);
