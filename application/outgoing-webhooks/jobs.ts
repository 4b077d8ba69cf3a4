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
 * One run of a delivery. `first_attempt` is the number of the job's first attempt within the run
 * (1 unless a replay made the first attempt itself), so the retry schedule goes on where it was.
 */
type DeliveryRunPayload = {
  readonly delivery_id: string;
  readonly redelivery: number;
  readonly first_attempt?: number;
};

/**
 * Sends one run of a delivery, retried by the queue until the receiver acknowledges it. Handled by
 * `makeDeliverWebhook` (deliver-webhook.ts). Each redelivery is a run with a key of its own, so the
 * job of the run before, still finishing, cannot keep it out; jobs queued before redeliveries were
 * counted name none, and send the first.
 */
export const webhookDeliveryJob = defineJob({
  kind: "webhook_delivery",
  read: (fields): DeliveryRunPayload => {
    const run = { delivery_id: fields.string("delivery_id"), redelivery: fields.number("redelivery", 0) };
    const first = fields.number("first_attempt", 1);
    return first === 1 ? run : { ...run, first_attempt: first };
  },
  dedupeKey: ({ delivery_id, redelivery }) => `webhook:${delivery_id}:${redelivery}`,
});

/**
 * One step of a replay: sends the next events of its window, paced to the replay rate, then queues
 * the next step. Handled by `makeRunWebhookReplay` (run-replay.ts).
 */
export const webhookReplayJob = defineJob({
  kind: "webhook_replay",
  read: (fields) => ({ replay_id: fields.string("replay_id"), step: fields.number("step", 0) }),
  dedupeKey: ({ replay_id, step }) => `replay:${replay_id}:${step}`,
});
