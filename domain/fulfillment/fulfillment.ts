import type { FulfillmentDriver } from "../catalog/drivers.ts";
import { IllegalFulfillmentTransition } from "./errors.ts";

/** The marketplace's own delivery states; the provider's tenant status lives apart, in `external_status`. */
export const FULFILLMENT_STATUSES = [
  "queued",
  "processing",
  "active",
  "awaiting_customer",
  "manual_pending",
  "failed",
  "cancelled",
] as const;
export type FulfillmentStatus = (typeof FULFILLMENT_STATUSES)[number];

/**
 * queued -> processing -> active | awaiting_customer | manual_pending | failed;
 * a transient failure goes back to queued; retry moves failed -> queued; the customer's input
 * moves awaiting_customer -> processing; ops completing a task moves manual_pending -> active;
 * cancel ends any live state.
 */
const TRANSITIONS: Readonly<Record<FulfillmentStatus, readonly FulfillmentStatus[]>> = {
  queued: ["processing", "cancelled"],
  processing: ["active", "awaiting_customer", "manual_pending", "failed", "queued", "cancelled"],
  awaiting_customer: ["processing", "cancelled"],
  manual_pending: ["active", "failed", "cancelled"],
  active: ["cancelled"],
  failed: ["queued", "cancelled"],
  cancelled: [],
};

export function canTransition(from: FulfillmentStatus, to: FulfillmentStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export function assertTransition(from: FulfillmentStatus, to: FulfillmentStatus): void {
  if (!canTransition(from, to)) throw new IllegalFulfillmentTransition(from, to);
}

/** Live means delivered or on its way: what suspend and cancel act on. */
export function isLive(status: FulfillmentStatus): boolean {
  return status !== "failed" && status !== "cancelled";
}

export interface FulfillmentRecord {
  readonly id: string;
  readonly order_id: string;
  readonly order_item_id: string;
  readonly product_id: string;
  readonly customer_id: string;
  readonly driver: FulfillmentDriver;
  readonly status: FulfillmentStatus;
  readonly external_reference_id: string | null;
  readonly external_workspace_url: string | null;
  readonly external_customer_id: string | null;
  /** What the external system says (a tenant's `trialing`, `suspended`, ...), apart from `status`. */
  readonly external_status: string | null;
  readonly attempts: number;
  readonly last_error: string | null;
  readonly payload_snapshot: Readonly<Record<string, unknown>>;
  readonly created_at: Date;
  readonly updated_at: Date;
}

/**
 * What an `awaiting_customer` record waits for, kept in its snapshot's `awaiting`: a verified email
 * address (`REQUIRE_VERIFIED_EMAIL_FOR_DELIVERY`), or, without it, what its driver asked for (a
 * domain).
 */
export const AWAITING_VERIFIED_EMAIL = "verify_email";

/** A record held before delivery until its customer's email address is verified. */
export function awaitsVerifiedEmail(record: Pick<FulfillmentRecord, "status" | "payload_snapshot">): boolean {
  return record.status === "awaiting_customer" && record.payload_snapshot.awaiting === AWAITING_VERIFIED_EMAIL;
}
