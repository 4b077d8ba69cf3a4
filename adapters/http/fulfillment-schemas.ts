import { t } from "elysia";
import { FULFILLMENT_STATUSES } from "../../domain/fulfillment/fulfillment.ts";
import { named } from "./api-model.ts";
import { DriverSchema, oneOf } from "./catalog-schemas.ts";
import { Int } from "./schema-types.ts";

const Time = t.String({ format: "date-time" });
const Payload = t.Record(t.String(), t.Unknown());

export const FulfillmentStatusSchema = named("FulfillmentStatus", oneOf(FULFILLMENT_STATUSES));

/** The delivery of one order item through its driver. */
export const FulfillmentSchema = named(
  "Fulfillment",
  t.Object({
    id: t.String({ format: "uuid" }),
    order_id: t.String({ format: "uuid" }),
    order_item_id: t.String({ format: "uuid" }),
    product_id: t.String({ format: "uuid" }),
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
    id: t.String({ format: "uuid" }),
    fulfillment_record_id: t.String({ format: "uuid" }),
    kind: oneOf(["manual_fulfillment", "provisioning"]),
    queue_id: t.String(),
    instructions: t.String(),
    due_at: Time,
    status: oneOf(["open", "completed", "cancelled"]),
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
    state: oneOf(["pending", "running", "done", "dead"]),
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
    id: t.String({ format: "uuid" }),
    customer_id: t.String({ format: "uuid" }),
    kind: oneOf(["fulfillment.ready", "fulfillment.failed"]),
    title: t.String(),
    body: t.String(),
    data: Payload,
    created_at: Time,
    read_at: t.Nullable(Time),
  }),
);
