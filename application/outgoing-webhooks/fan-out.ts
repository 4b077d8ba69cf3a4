import { attemptsOf, type RetrySchedule } from "../../domain/outgoing-webhooks/webhook-delivery.ts";
import type { JobHandler } from "../shared/jobs.ts";
import { webhookDeliveryJob, type webhookFanoutJob } from "./jobs.ts";
import type { DeliveryRun, WebhookUnitOfWork } from "./ports.ts";

/** The payload of one run of a delivery, which also keys its job. */
export const deliveryRun = (run: DeliveryRun) => ({ delivery_id: run.id, redelivery: run.redeliveries });

/** The job of one run of a delivery: an attempt per wait of the retry schedule, and the first. */
export const deliveryJob = (run: DeliveryRun, retrySchedule: RetrySchedule) =>
  webhookDeliveryJob(deliveryRun(run), { maxAttempts: attemptsOf(retrySchedule) });

/**
 * The fan-out job: one delivery per endpoint subscribed to the event's type, each with its job,
 * in one transaction. Run again, it finds every delivery made and queues nothing twice.
 */
export function makeWebhookFanout(deps: {
  readonly uow: WebhookUnitOfWork;
  readonly retrySchedule: RetrySchedule;
}): JobHandler<typeof webhookFanoutJob> {
  return async function fanOut({ event_id }): Promise<void> {
    await deps.uow.run(async (scope) => {
      for (const id of await scope.deliveries.fanOut(event_id)) {
        await scope.jobs.enqueue(deliveryJob({ id, redeliveries: 0 }, deps.retrySchedule));
      }
    });
  };
}
