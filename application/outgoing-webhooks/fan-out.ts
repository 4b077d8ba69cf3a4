import { PermanentJobFailure } from "../shared/jobs.ts";
import { WEBHOOK_DELIVERY_JOB, type WebhookUnitOfWork } from "./ports.ts";

/** The delivery job of one delivery: its dedupe key keeps a second copy out while one is queued or running. */
export const deliveryJob = (deliveryId: string, maxAttempts: number) => ({
  kind: WEBHOOK_DELIVERY_JOB,
  payload: { delivery_id: deliveryId },
  dedupeKey: `webhook:${deliveryId}`,
  maxAttempts,
});

/**
 * The fan-out job: one delivery per endpoint subscribed to the event's type, each with its job,
 * in one transaction. Run again, it finds every delivery made and queues nothing twice.
 */
export function makeWebhookFanout(deps: { readonly uow: WebhookUnitOfWork; readonly maxAttempts: number }) {
  return async function fanOut(payload: Readonly<Record<string, unknown>>): Promise<void> {
    const eventId = payload.event_id;
    if (typeof eventId !== "string") throw new PermanentJobFailure("the fan-out job names no event");
    await deps.uow.run(async (scope) => {
      for (const deliveryId of await scope.deliveries.fanOut(eventId)) {
        await scope.jobs.enqueue(deliveryJob(deliveryId, deps.maxAttempts));
      }
    });
  };
}
