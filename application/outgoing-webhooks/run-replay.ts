import { attemptsOf } from "../../domain/outgoing-webhooks/webhook-delivery.ts";
import type { JobHandler } from "../shared/jobs.ts";
import { type AttemptDeps, attemptDelivery } from "./attempt-delivery.ts";
import { deliveryRun } from "./fan-out.ts";
import { webhookDeliveryJob, webhookReplayJob } from "./jobs.ts";
import type { WebhookScope, WebhookUnitOfWork } from "./ports.ts";
import type { ReplayEvent, WebhookReplayRepository } from "./replay-ports.ts";

/**
 * How long one step of a replay sends before it hands its worker slot back and queues the next:
 * long enough that the worker's poll between steps costs little of the rate, short enough that a
 * replay of thousands of events never holds a slot other work is waiting for.
 */
export const REPLAY_STEP_MS = 2_000;

/**
 * The replay job. Each step takes the next events after the replay's cursor and sends them one
 * after the other, each `1000 / perSecond` ms after the one before began, so they reach the receiver
 * in creation order and at most `perSecond` a second. Each event's delivery is taken over for the
 * replay and its first attempt made here; the cursor moves past the event only after that attempt,
 * in the transaction that queues its retry, so a step that dies on the way (its worker stopped, an
 * error) is run again from the same event: the event in flight is sent at least once, maybe twice,
 * under the same `webhook-id`. A failed attempt goes on in the delivery's own job on the retry
 * schedule while the replay moves on. Each run of a step takes the replay's lease and checks it
 * before every event, so a run that another has taken over, or a cancelled replay, sends no more.
 * A step whose failure dead-letters its job (a permanent one, or its last attempt) ends the replay
 * `failed`, as a fulfillment or an email ends on its job's last attempt: no job is left to send the
 * rest, so it must not read `running`.
 */
export function makeRunWebhookReplay(
  deps: AttemptDeps & {
    readonly replays: Pick<WebhookReplayRepository, "claim" | "next" | "fail">;
    readonly uow: WebhookUnitOfWork;
    readonly perSecond: number;
    readonly pause: (ms: number) => Promise<void>;
  },
): JobHandler<typeof webhookReplayJob> {
  const gapMs = 1_000 / deps.perSecond;
  const perStep = Math.max(1, Math.floor((deps.perSecond * REPLAY_STEP_MS) / 1_000));
  const attempts = attemptsOf(deps.retrySchedule);

  /** Sends one event; false when the run no longer holds the replay, and must stop. */
  async function replayOne(
    replayId: string,
    lease: number,
    event: ReplayEvent,
    pace: () => Promise<void>,
  ): Promise<boolean> {
    const taken = await deps.uow.run(async (scope) =>
      (await scope.replays.holds(replayId, lease))
        ? { held: true, delivery: await scope.deliveries.replayRun(replayId, event.id) }
        : { held: false, delivery: undefined },
    );
    if (!taken.held) return false;
    const run = taken.delivery && deliveryRun(taken.delivery);
    const outcome = run && (await attemptDelivery(deps, run, { number: 1, last: attempts <= 1, beforeSend: pace }));
    return deps.uow.run(async (scope) => {
      if (run && outcome?.kind === "retry") {
        const runAt = new Date(deps.clock().getTime() + outcome.waitMs);
        await scope.jobs.enqueue(
          webhookDeliveryJob({ ...run, first_attempt: 2 }, { runAt, maxAttempts: attempts - 1 }),
        );
      }
      if (!(await scope.replays.holds(replayId, lease))) return false;
      await scope.replays.advance(replayId, event);
      return true;
    });
  }

  /** Completes the replay, or queues its next step, unless another run has taken it over. */
  function finish(replayId: string, lease: number, next: (scope: WebhookScope) => Promise<void>): Promise<void> {
    return deps.uow.run(async (scope) => {
      if (await scope.replays.holds(replayId, lease)) await next(scope);
    });
  }

  async function runStep(replay_id: string, step: number, lease: number): Promise<void> {
    const complete = (scope: WebhookScope) => scope.replays.complete(replay_id, deps.clock());
    const events = await deps.replays.next(replay_id, perStep);
    if (events.length === 0) return finish(replay_id, lease, complete);
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
      if (!(await replayOne(replay_id, lease, event, pace))) {
        deps.log.info({ replay_id, step }, "webhook replay step stopped: cancelled or taken over by another run");
        return;
      }
      sent += 1;
      // A slow receiver: the step ends on time rather than hold the slot for every event.
      if (deps.clock().getTime() - started >= REPLAY_STEP_MS) break;
    }
    if (events.length < perStep && sent === events.length) return finish(replay_id, lease, complete);
    const runAt = new Date(Math.max(due, deps.clock().getTime()));
    return finish(replay_id, lease, (scope) =>
      scope.jobs.enqueue(webhookReplayJob({ replay_id, step: step + 1 }, { runAt })),
    );
  }

  return async function runWebhookReplay({ replay_id, step }, job): Promise<void> {
    let lease: number | undefined;
    try {
      lease = await deps.replays.claim(replay_id);
      if (lease !== undefined) await runStep(replay_id, step, lease);
    } catch (error) {
      // Only a run holding the lease fails the replay: one that could not claim it may have lost
      // to a run that holds it. Left running, the replay goes on when its dead job is redriven.
      const giveUp = (error as { transient?: unknown } | null)?.transient === false || job.lastAttempt;
      if (giveUp && lease !== undefined) {
        const reason = errorText(error);
        // The job's own error is what the queue records; failing to mark the replay is only logged.
        await deps.replays
          .fail(replay_id, deps.clock(), reason, lease)
          .then(() => deps.log.error({ replay_id, step, error: reason }, "webhook replay failed: its step job gave up"))
          .catch((marking: unknown) =>
            deps.log.error(
              { replay_id, step, error: errorText(marking) },
              "marking a webhook replay failed did not work",
            ),
          );
      }
      throw error;
    }
  };
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1000);
