import { attemptsOf } from "../../domain/outgoing-webhooks/webhook-delivery.ts";
import type { JobHandler } from "../shared/jobs.ts";
import { type AttemptDeps, attemptDelivery } from "./attempt-delivery.ts";
import { deliveryRun } from "./fan-out.ts";
import { webhookDeliveryJob, webhookReplayJob } from "./jobs.ts";
import type { WebhookUnitOfWork } from "./ports.ts";
import type { ReplayEvent, WebhookReplayRepository } from "./replay-ports.ts";

/**
 * How long one step of a replay sends before it hands its worker slot back and queues the next:
 * long enough that the worker's poll between steps costs little of the rate, short enough that a
 * replay of thousands of events never holds a slot other work is waiting for.
 */
export const REPLAY_STEP_MS = 2_000;

/**
 * The replay job. Each step takes the next events after the replay's cursor and sends them one
 * after the other, each `1000 / perSecond` ms after the one before began, so they reach the receiver in creation order and at
 * most `perSecond` a second. Each event's delivery is taken over for the replay and the cursor moved
 * past it in one transaction; the first attempt is made here, and a failed one goes on in the
 * delivery's own job on the retry schedule while the replay moves on to the next event. The cursor
 * is in PostgreSQL, so a step run again after its worker stopped goes on where it was (the event in
 * flight may be sent twice, under the same `webhook-id`).
 */
export function makeRunWebhookReplay(
  deps: AttemptDeps & {
    readonly replays: Pick<WebhookReplayRepository, "next" | "complete">;
    readonly uow: WebhookUnitOfWork;
    readonly perSecond: number;
    readonly pause: (ms: number) => Promise<void>;
  },
): JobHandler<typeof webhookReplayJob> {
  const gapMs = 1_000 / deps.perSecond;
  const perStep = Math.max(1, Math.floor((deps.perSecond * REPLAY_STEP_MS) / 1_000));
  const attempts = attemptsOf(deps.retrySchedule);

  async function replayOne(replayId: string, event: ReplayEvent, pace: () => Promise<void>): Promise<void> {
    const delivery = await deps.uow.run(async (scope) => {
      const taken = await scope.deliveries.replayRun(replayId, event.id);
      await scope.replays.advance(replayId, event);
      return taken;
    });
    if (!delivery) return;
    const run = deliveryRun(delivery);
    const outcome = await attemptDelivery(deps, run, { number: 1, last: attempts <= 1, beforeSend: pace });
    if (outcome.kind !== "retry") return;
    const runAt = new Date(deps.clock().getTime() + outcome.waitMs);
    await deps.uow.run((scope) =>
      scope.jobs.enqueue(webhookDeliveryJob({ ...run, first_attempt: 2 }, { runAt, maxAttempts: attempts - 1 })),
    );
  }

  return async function runWebhookReplay({ replay_id, step }): Promise<void> {
    const events = await deps.replays.next(replay_id, perStep);
    if (events.length === 0) {
      await deps.replays.complete(replay_id, deps.clock());
      return;
    }
    const started = deps.clock().getTime();
    // Each POST starts a gap after the one before it, across steps too (the next step is due then),
    // so no second ever holds more than `perSecond` of them.
    let due = started;
    let sent = 0;
    const pace = async () => {
      const wait = due - deps.clock().getTime();
      if (wait > 0) await deps.pause(wait);
      due = deps.clock().getTime() + gapMs;
    };
    for (const event of events) {
      await replayOne(replay_id, event, pace);
      sent += 1;
      // A slow receiver: the step ends on time rather than hold the slot for every event.
      if (deps.clock().getTime() - started >= REPLAY_STEP_MS) break;
    }
    if (events.length < perStep && sent === events.length) {
      await deps.replays.complete(replay_id, deps.clock());
      return;
    }
    const runAt = new Date(Math.max(due, deps.clock().getTime()));
    await deps.uow.run((scope) => scope.jobs.enqueue(webhookReplayJob({ replay_id, step: step + 1 }, { runAt })));
  };
}
