import { defineJob, type PayloadOf } from "../shared/jobs.ts";
import type { FulfillmentAction } from "./ports.ts";

/** Runs a queued fulfillment record through its adapter. Handled by `makeFulfillItem` (fulfill-item.ts). */
export const fulfillJob = defineJob({
  kind: "fulfill",
  read: (fields) => ({ fulfillment_id: fields.string("fulfillment_id") }),
  dedupeKey: ({ fulfillment_id }) => `fulfill:${fulfillment_id}`,
});

const ACTIONS: Readonly<Record<FulfillmentAction, true>> = {
  cancel: true,
  suspend: true,
  resume: true,
  renew: true,
  change_plan: true,
  sync: true,
};

/**
 * Suspends, resumes, renews, cancels or syncs one delivery, outside the transaction that decided
 * it. Handled by `makeFulfillmentActionJob` (fulfillment-action-job.ts). `cause` names what asked
 * for it (a gateway event, a refund, the minute tick): one job per action, record and cause is
 * pending at a time, and a second cause of the same action (a second dispute) gets its own.
 */
export const fulfillmentActionJob = defineJob({
  kind: "fulfillment_action",
  read: (fields) => ({
    fulfillment_id: fields.string("fulfillment_id"),
    action: fields.oneOf("action", Object.keys(ACTIONS) as FulfillmentAction[]),
    reason: fields.string("reason", ""),
    // Not read by the handler: it only keys the job apart.
    cause: fields.string("cause", ""),
  }),
  dedupeKey: ({ action, fulfillment_id, cause }) => `${action}:${fulfillment_id}:${cause}`,
});

export type FulfillmentActionPayload = PayloadOf<typeof fulfillmentActionJob>;

/**
 * Starts the deliveries of a customer that waited for their email address to be verified
 * (`REQUIRE_VERIFIED_EMAIL_FOR_DELIVERY`). Handled by `makeReleaseHeldDeliveries`
 * (held-deliveries.ts).
 */
export const releaseHeldDeliveriesJob = defineJob({
  kind: "release_held_deliveries",
  read: (fields) => ({ customer_id: fields.string("customer_id") }),
  dedupeKey: ({ customer_id }) => `release-held-deliveries:${customer_id}`,
});
