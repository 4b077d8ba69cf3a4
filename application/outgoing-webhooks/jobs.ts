import { defineJob } from "../shared/jobs.ts";

/**
 * Turns one published event into one delivery per subscribed endpoint. Handled by
 * `makeWebhookFanout` (fan-out.ts).
 */
export const webhookFanoutJob = defineJob({
  kind: "webhook_fanout",
  read: (fields) => ({ event_id: fields.string("event_id") }),
  dedupeKey: ({ event_id }) => `fanout:${event_id}`,
});

/**
 * Sends one run of a delivery, retried by the queue until the receiver acknowledges it. Handled by
 * `makeDeliverWebhook` (deliver-webhook.ts). Each redelivery is a run with a key of its own, so the
 * job of the run before, still finishing, cannot keep it out; jobs queued before redeliveries were
 * counted name none, and send the first.
 */
export const webhookDeliveryJob = defineJob({
  kind: "webhook_delivery",
  read: (fields) => ({ delivery_id: fields.string("delivery_id"), redelivery: fields.number("redelivery", 0) }),
  dedupeKey: ({ delivery_id, redelivery }) => `webhook:${delivery_id}:${redelivery}`,
});
