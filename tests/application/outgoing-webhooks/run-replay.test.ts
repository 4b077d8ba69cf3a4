import { describe, expect, test } from "bun:test";
import type {
  OutgoingMessage,
  WebhookDelivery,
  WebhookScope,
  WebhookUnitOfWork,
} from "../../../application/outgoing-webhooks/ports.ts";
import { makeRunWebhookReplay, REPLAY_STEP_MS } from "../../../application/outgoing-webhooks/run-replay.ts";
import type { RetrySchedule } from "../../../domain/outgoing-webhooks/webhook-delivery.ts";
import { createMovableClock } from "../../support/fakes/movable-clock.ts";
import { createRecordingJobScheduler } from "../../support/fakes/recording-job-scheduler.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";
import { firstRun, nthRun } from "../../support/jobs.ts";

const SCHEDULE: RetrySchedule = [10, 20, 40];

const aDelivery = (eventId: string): WebhookDelivery => ({
  id: `d-${eventId}`,
  endpoint_id: "e1",
  event_id: eventId,
  event_type: "order.paid",
  state: "pending",
  attempts: 0,
  redeliveries: 1,
  replay_id: "r1",
  last_status_code: null,
  last_error: null,
  last_attempt_at: null,
  delivered_at: null,
  created_at: new Date("2026-01-15T09:00:00.000Z"),
});

/**
 * The replay job over `count` events in memory: the sender answers `statusOf(event id)` and notes
 * when each POST went out, by the clock the job's pauses move.
 */
function setUp(
  count: number,
  perSecond: number,
  statusOf: (eventId: string) => number = () => 200,
  unreadable: (eventId: string) => boolean = () => false,
) {
  const events = Array.from({ length: count }, (_, i) => ({ id: `ev${i}` }));
  const clock = createMovableClock();
  const jobs = createRecordingJobScheduler();
  const sends: { event: string; at: number }[] = [];
  const state = {
    cursor: 0,
    completed: false,
    failed: undefined as { error: string; lease: number | undefined } | undefined,
  };
  const replays = {
    claim: async () => (state.completed ? undefined : 1),
    holds: async () => !state.completed,
    next: async (_: string, limit: number) => (state.completed ? [] : events.slice(state.cursor, state.cursor + limit)),
    advance: async (_: string, event: { id: string }) => {
      state.cursor = events.findIndex((candidate) => candidate.id === event.id) + 1;
    },
    complete: async () => {
      state.completed = true;
    },
    fail: async (_: string, _at: Date, error: string, lease?: number) => {
      state.failed = { error, lease };
    },
  };
  const scope = {
    deliveries: { replayRun: async (_: string, eventId: string) => aDelivery(eventId) },
    replays,
    jobs,
  } as unknown as WebhookScope;
  const uow: WebhookUnitOfWork = { run: (work) => work(scope) };
  const message = (deliveryId: string): OutgoingMessage => {
    const delivery = aDelivery(deliveryId.slice(2));
    return {
      delivery,
      event: { id: delivery.event_id, type: "order.paid", data: {}, created_at: delivery.created_at },
      url: "https://hooks.example.com/in",
      secrets: { current: "whsec_c2VjcmV0", previous: null, previous_expires_at: null },
    };
  };
  const run = makeRunWebhookReplay({
    deliveries: {
      async outgoing(id) {
        if (unreadable(id.slice(2))) throw new Error("the endpoint's secret cannot be opened");
        return message(id);
      },
      recordAttempt: async () => {},
    },
    sender: {
      async send(outgoing) {
        const event = JSON.parse(outgoing.body) as { type: string };
        const eventId = outgoing.id.replace("msg_d-", "");
        sends.push({ event: eventId, at: clock.now().getTime() });
        return { kind: "answered", status: statusOf(eventId), excerpt: event.type, retry_after_ms: null };
      },
    },
    retrySchedule: SCHEDULE,
    clock: clock.clock,
    log: createRecordingLog(),
    replays,
    uow,
    perSecond,
    pause: async (ms) => clock.advance(ms),
  });
  return { run, sends, jobs, state, clock };
}

describe("the webhook replay job", () => {
  test("a step sends two seconds' worth of events, one every 1000 / perSecond ms, then queues the next step", async () => {
    const { run, sends, jobs, state, clock } = setUp(25, 5);
    const started = clock.now().getTime();
    await run({ replay_id: "r1", step: 0 }, firstRun());

    expect(sends.map((send) => send.event)).toEqual([...Array(10).keys()].map((i) => `ev${i}`));
    expect(sends.map((send) => send.at - started)).toEqual([...Array(10).keys()].map((i) => i * 200));
    expect(state.cursor).toBe(10);
    const [next] = jobs.ofKind("webhook_replay");
    expect(next).toMatchObject({ payload: { replay_id: "r1", step: 1 }, dedupeKey: "replay:r1:1" });
    expect(next?.runAt?.getTime()).toBe(started + 10 * 200);
    expect(REPLAY_STEP_MS).toBe(2_000);
  });

  test("the last, short step completes the replay; a step that finds nothing completes it too", async () => {
    const { run, sends, jobs, state } = setUp(3, 5);
    await run({ replay_id: "r1", step: 4 }, firstRun());
    expect(sends).toHaveLength(3);
    expect(state.completed).toBe(true);
    expect(jobs.ofKind("webhook_replay")).toEqual([]);

    const empty = setUp(0, 5);
    await empty.run({ replay_id: "r1", step: 0 }, firstRun());
    expect(empty.state.completed).toBe(true);
  });

  test("a failed first attempt goes on in its delivery's job from the schedule's second wait; the replay moves on", async () => {
    const { run, sends, jobs, clock } = setUp(3, 100, (eventId) => (eventId === "ev1" ? 500 : 200));
    await run({ replay_id: "r1", step: 0 }, firstRun());
    expect(sends.map((send) => send.event)).toEqual(["ev0", "ev1", "ev2"]);
    const [retry] = jobs.ofKind("webhook_delivery");
    expect(retry).toMatchObject({
      payload: { delivery_id: "d-ev1", redelivery: 1, first_attempt: 2 },
      dedupeKey: "webhook:d-ev1:1",
      maxAttempts: 3,
    });
    const failedAt = sends[1]?.at ?? 0;
    expect(retry?.runAt?.getTime()).toBe(failedAt + SCHEDULE[0]);
    expect(clock.now().getTime()).toBeGreaterThanOrEqual(failedAt);
  });

  test("a step failing on its job's last attempt ends the replay failed, under its lease; an earlier attempt leaves it running", async () => {
    const { run, sends, state } = setUp(
      3,
      100,
      () => 200,
      (eventId) => eventId === "ev1",
    );
    await expect(run({ replay_id: "r1", step: 0 }, nthRun(1, 2))).rejects.toThrow("cannot be opened");
    expect(state.failed).toBeUndefined();
    await expect(run({ replay_id: "r1", step: 0 }, nthRun(2, 2))).rejects.toThrow("cannot be opened");
    expect(state.failed).toEqual({ error: "the endpoint's secret cannot be opened", lease: 1 });
    // The event before it was sent, the one it failed on and those after it never were.
    expect(sends.map((send) => send.event)).toEqual(["ev0"]);
    expect(state.completed).toBe(false);
  });
});
