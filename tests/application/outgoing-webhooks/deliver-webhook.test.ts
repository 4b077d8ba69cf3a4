import { describe, expect, test } from "bun:test";
import { MAX_RETRY_AFTER_MS } from "../../../application/outgoing-webhooks/attempt-delivery.ts";
import { makeDeliverWebhook } from "../../../application/outgoing-webhooks/deliver-webhook.ts";
import { webhookDeliveryJob } from "../../../application/outgoing-webhooks/jobs.ts";
import type {
  AttemptRecord,
  OutgoingMessage,
  WebhookAnswer,
  WebhookMessage,
} from "../../../application/outgoing-webhooks/ports.ts";
import { WebhookAttemptFailed } from "../../../domain/outgoing-webhooks/errors.ts";
import {
  attemptsOf,
  DEFAULT_RETRY_SCHEDULE,
  type RetrySchedule,
} from "../../../domain/outgoing-webhooks/webhook-delivery.ts";
import { createMovableClock } from "../../support/fakes/movable-clock.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";
import { nthRun } from "../../support/jobs.ts";

const NOW = "2026-01-15T09:30:00.000Z";

function aMessage(
  overrides: Partial<OutgoingMessage["delivery"]> = {},
  secrets: Partial<OutgoingMessage["secrets"]> = {},
) {
  const message: OutgoingMessage = {
    delivery: {
      id: "6f1c1f0e-9a3b-4c56-8d7e-2b1a0c9d8e7f",
      endpoint_id: "e1",
      event_id: "ev1",
      event_type: "order.paid",
      state: "pending",
      attempts: 0,
      redeliveries: 0,
      replay_id: null,
      last_status_code: null,
      last_error: null,
      last_attempt_at: null,
      delivered_at: null,
      created_at: new Date(NOW),
      ...overrides,
    },
    event: {
      id: "ev1",
      type: "order.paid",
      data: { order_id: "o1" },
      created_at: new Date("2026-01-15T09:29:59.123Z"),
    },
    url: "https://hooks.example.com/in",
    secrets: {
      current: "whsec_new",
      previous: "whsec_old",
      previous_expires_at: new Date("2026-01-16T09:00:00.000Z"),
      ...secrets,
    },
  };
  return message;
}

const SHORT_SCHEDULE: RetrySchedule = [10, 20, 40];

/** The delivery job over one message, a sender answering `answer`, and what it recorded. */
function setUp(
  answer: WebhookAnswer | ((at: Date) => WebhookAnswer),
  message: OutgoingMessage | null = aMessage(),
  retrySchedule: RetrySchedule = SHORT_SCHEDULE,
) {
  const sent: WebhookMessage[] = [];
  const attempts: AttemptRecord[] = [];
  const clock = createMovableClock(NOW);
  const deliver = makeDeliverWebhook({
    deliveries: {
      outgoing: async () => message ?? undefined,
      recordAttempt: async (_, attempt) => {
        attempts.push(attempt);
      },
    },
    sender: {
      async send(outgoing) {
        sent.push(outgoing);
        return typeof answer === "function" ? answer(outgoing.timestamp) : answer;
      },
    },
    retrySchedule,
    clock: clock.clock,
    log: createRecordingLog(),
  });
  const job = (attempt: number, maxAttempts = attemptsOf(retrySchedule)) => nthRun(attempt, maxAttempts);
  const run = (attempt = 1, options: { redelivery?: number; maxAttempts?: number; firstAttempt?: number } = {}) =>
    deliver(
      // Read back as the worker reads it: a job stored without `redelivery` sends the first run.
      webhookDeliveryJob.read({
        delivery_id: message?.delivery.id ?? crypto.randomUUID(),
        redelivery: options.redelivery,
        first_attempt: options.firstAttempt,
      }),
      job(attempt, options.maxAttempts),
    );
  return { sent, attempts, clock, run };
}

const answered = (status: number, retry_after_ms: number | null = null, excerpt = ""): WebhookAnswer => ({
  kind: "answered",
  status,
  excerpt,
  retry_after_ms,
});

describe("the webhook delivery job", () => {
  test("sends the event's body under the delivery's webhook-id, signed by both secrets while the old one is valid", async () => {
    const { sent, attempts, run } = setUp(answered(204));
    await run();
    expect(sent).toEqual([
      {
        url: "https://hooks.example.com/in",
        id: "msg_6f1c1f0e-9a3b-4c56-8d7e-2b1a0c9d8e7f",
        timestamp: new Date(NOW),
        body: '{"type":"order.paid","timestamp":"2026-01-15T09:29:59.123Z","data":{"order_id":"o1"}}',
        secrets: ["whsec_new", "whsec_old"],
      },
    ]);
    expect(attempts).toEqual([{ state: "succeeded", status_code: 204, error: null, at: new Date(NOW) }]);
  });

  test("signs with the current secret only once the old one expired", async () => {
    const { sent, run } = setUp(answered(200), aMessage({}, { previous_expires_at: new Date("2026-01-15T09:00:00Z") }));
    await run();
    expect(sent[0]?.secrets).toEqual(["whsec_new"]);
  });

  test("a non-2xx is recorded and thrown for the queue to retry; on the last attempt the delivery is dead", async () => {
    const failing = setUp(answered(500, null, "boom"));
    await expect(failing.run(1)).rejects.toBeInstanceOf(WebhookAttemptFailed);
    await failing.run(4);
    expect(failing.attempts.map((attempt) => [attempt.state, attempt.status_code, attempt.error])).toEqual([
      ["pending", 500, "HTTP 500: boom"],
      ["dead", 500, "HTTP 500: boom"],
    ]);
  });

  test("each retry waits at least the schedule's wait after the attempt that failed, the last one past its end", async () => {
    const { run } = setUp(answered(500));
    for (const [attempt, wait] of [
      [1, 10],
      [2, 20],
      [3, 40],
    ] as const) {
      await expect(run(attempt)).rejects.toMatchObject({ transient: true, retryAfterMs: wait });
    }
    // A job queued under a longer schedule than today's.
    await expect(run(7, { maxAttempts: 9 })).rejects.toMatchObject({ retryAfterMs: 40 });
  });

  test("a run whose first attempt a replay made goes on with the schedule's next wait, and dies on the schedule's last attempt", async () => {
    const { run, attempts } = setUp(answered(500));
    await expect(run(1, { firstAttempt: 2, maxAttempts: 3 })).rejects.toMatchObject({ retryAfterMs: 20 });
    await expect(run(2, { firstAttempt: 2, maxAttempts: 3 })).rejects.toMatchObject({ retryAfterMs: 40 });
    await run(3, { firstAttempt: 2, maxAttempts: 3 });
    expect(attempts.map((attempt) => attempt.state)).toEqual(["pending", "pending", "dead"]);
  });

  test("a 429 or 503 Retry-After longer than the schedule's wait wins, capped at an hour; other statuses' do not count", async () => {
    for (const [status, retryAfter, floor] of [
      [429, 30_000, 30_000],
      [503, 30 * 86_400_000, MAX_RETRY_AFTER_MS],
      [429, 1, 10],
      [500, 30_000, 10],
    ] as const) {
      const { run } = setUp(answered(status, retryAfter));
      await expect(run()).rejects.toMatchObject({ transient: true, retryAfterMs: floor });
    }
    const late = setUp(answered(429, 60_000), aMessage(), DEFAULT_RETRY_SCHEDULE);
    await expect(late.run(5)).rejects.toMatchObject({ retryAfterMs: 5 * 3_600_000 });
  });

  test("on the default schedule, a receiver down for half an hour gets the event on the fourth attempt", async () => {
    const downUntil = new Date(Date.parse(NOW) + 30 * 60_000);
    const { attempts, clock, run } = setUp(
      (at) => (at < downUntil ? answered(503) : answered(200)),
      aMessage(),
      DEFAULT_RETRY_SCHEDULE,
    );
    for (let attempt = 1; attempt <= attemptsOf(DEFAULT_RETRY_SCHEDULE); attempt++) {
      try {
        await run(attempt);
        break;
      } catch (error) {
        clock.advance((error as WebhookAttemptFailed).retryAfterMs);
      }
    }
    expect(attempts.map((attempt) => attempt.state)).toEqual(["pending", "pending", "pending", "succeeded"]);
    expect(clock.now().getTime() - Date.parse(NOW)).toBe(5_000 + 5 * 60_000 + 30 * 60_000);
  });

  test("an address the guard refuses for good is dead at once, without waiting for the last attempt", async () => {
    const reason = "The address is not allowed: 10.0.0.8 is not a public address (private-use).";
    const { attempts, run } = setUp({ kind: "failed", reason, permanent: true });
    await run(1);
    expect(attempts).toEqual([{ state: "dead", status_code: null, error: reason, at: new Date(NOW) }]);
  });

  test("a time-out or a refused connection is retried", async () => {
    const { attempts, run } = setUp({ kind: "failed", reason: "no answer within 15 s", permanent: false });
    await expect(run(1)).rejects.toMatchObject({ transient: true, retryAfterMs: 10 });
    expect(attempts[0]).toMatchObject({ state: "pending", status_code: null, error: "no answer within 15 s" });
  });

  test("a job queued before the delivery was redelivered sends nothing: the redelivery's own job sends it", async () => {
    const redelivered = setUp(answered(200), aMessage({ redeliveries: 2 }));
    await redelivered.run(1, { redelivery: 1 });
    await redelivered.run(1);
    expect(redelivered.sent).toEqual([]);
    await redelivered.run(1, { redelivery: 2 });
    expect(redelivered.sent).toHaveLength(1);
    expect(redelivered.attempts).toMatchObject([{ state: "succeeded" }]);
  });

  test("a delivery that is gone, or no longer pending, is not sent", async () => {
    for (const message of [null, aMessage({ state: "succeeded" }), aMessage({ state: "dead" })]) {
      const { sent, attempts, run } = setUp(answered(200), message);
      await run();
      expect(sent).toEqual([]);
      expect(attempts).toEqual([]);
    }
  });
});
