/** What the shop tells its own systems about, by outgoing webhook. */
export const OUTGOING_EVENT_TYPES = [
  "order.paid",
  "order.refunded",
  "order.needs_attention",
  "fulfillment.ready",
  "fulfillment.failed",
  "subscription.renewed",
  "subscription.cancelled",
] as const;

export type OutgoingEventType = (typeof OUTGOING_EVENT_TYPES)[number];

/**
 * Publishes an event inside the caller's transaction: it is sent to the subscribed endpoints only
 * if the state change behind it commits. `data` holds ids and public fields, never a secret.
 */
export interface EventPublisher {
  publish(type: OutgoingEventType, data: Readonly<Record<string, unknown>>): Promise<void>;
}

/** The job that turns one published event into one delivery per subscribed endpoint. */
export const WEBHOOK_FANOUT_JOB = "webhook_fanout";
