import type { Schemas } from "../../shared/api.ts";

export type EventType = Schemas["OutgoingEventType"];

/**
 * Every event type the API sends, in its order; a type the API gains and this list lacks does not
 * compile, so the form never offers less than an endpoint can subscribe to.
 */
export const EVENT_TYPES = [
  "order.paid",
  "order.refunded",
  "order.needs_attention",
  "fulfillment.ready",
  "fulfillment.failed",
  "subscription.renewed",
  "subscription.cancelled",
  "subscription.payment_failed",
  "subscription.trial_ending",
  "subscription.plan_changed",
  "license.suspended",
  "license.reinstated",
  "license.reissued",
] as const satisfies readonly EventType[];
const everyType: Exclude<EventType, (typeof EVENT_TYPES)[number]> extends never ? true : never = true;
void everyType;
