import { WebhookAttemptFailed } from "../../domain/outgoing-webhooks/errors.ts";
import type { JobHandler } from "../shared/jobs.ts";
import { type AttemptDeps, attemptDelivery } from "./attempt-delivery.ts";
import type { webhookDeliveryJob } from "./jobs.ts";

/**
 * The delivery job: one signed POST per run, under the same `webhook-id` every time. A failure is
 * recorded on the delivery and thrown, so the queue retries it after the retry schedule's wait; on
 * the last attempt (or when the address may never be called) the delivery is dead instead, and the
 * job ends: the delivery, not the job, is what admins look at and redeliver. A delivery that is
 * gone (its endpoint was deleted) or no longer pending is not sent, nor is one redelivered or
 * replayed since the job was queued: that run's own job sends it.
 */
export function makeDeliverWebhook(deps: AttemptDeps): JobHandler<typeof webhookDeliveryJob> {
  return async function deliverWebhook(run, job): Promise<void> {
    // A run whose first attempt a replay made goes on with the schedule's next wait.
    const number = (run.first_attempt ?? 1) - 1 + job.attempt;
    const outcome = await attemptDelivery(deps, run, { number, last: job.lastAttempt });
    if (outcome.kind === "retry") throw new WebhookAttemptFailed(outcome.reason, outcome.waitMs);
  };
}
