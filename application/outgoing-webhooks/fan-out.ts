import { attemptsOf, type RetrySchedule } from "../../domain/outgoing-webhooks/webhook-delivery.ts";
import { PermanentJobFailure } from "../shared/errors.ts";
import { WEBHOOK_DELIVERY_JOB, type WebhookDelivery, type WebhookUnitOfWork } from "./ports.ts";

type DeliveryRun = Pick<WebhookDelivery, "id" | "redeliveries">;

/**
 * The dedupe key of one run of a delivery: it keeps a second copy out while one is queued or
 * running, and a redelivery gets one of its own, so the job of the run before, still finishing,
 * cannot keep it out.
 */
export const deliveryJobKey = (run: DeliveryRun): string => `webhook:${run.id}:${run.redeliveries}`;

/** The job of one run of a delivery: an attempt per wait of the retry schedule, and the first. */
export const deliveryJob = (run: DeliveryRun, retrySchedule: RetrySchedule) => ({
  kind: WEBHOOK_DELIVERY_JOB,
  payload: { delivery_id: run.id, redelivery: run.redeliveries },
  dedupeKey: deliveryJobKey(run),
  maxAttempts: attemptsOf(retrySchedule),
});

/**
 * The fan-out job: one delivery per endpoint subscribed to the event's type, each with its job,
 * in one transaction. Run again, it finds every delivery made and queues nothing twice.
 */
export function makeWebhookFanout(deps: { readonly uow: WebhookUnitOfWork; readonly retrySchedule: RetrySchedule }) {
  return async function fanOut(payload: Readonly<Record<string, unknown>>): Promise<void> {
    const eventId = payload.event_id;
    if (typeof eventId !== "string") throw new PermanentJobFailure("the fan-out job names no event");
    await deps.uow.run(async (scope) => {
      for (const id of await scope.deliveries.fanOut(eventId)) {
        await scope.jobs.enqueue(deliveryJob({ id, redeliveries: 0 }, deps.retrySchedule));
      }
    });
  };
}
