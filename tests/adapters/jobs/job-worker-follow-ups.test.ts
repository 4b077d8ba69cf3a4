import { describe, expect, test } from "bun:test";
import { createPostgresJobScheduler } from "../../../adapters/jobs/postgres-job-scheduler.ts";
import type { Queryable } from "../../../adapters/postgres/database.ts";
import {
  emptyFollowUp,
  type FollowUp,
  type JobContext,
  type JobHandler,
  type StoredPayload,
} from "../../../application/shared/jobs.ts";
import type { ChangeSignal } from "../../../application/shared/ports.ts";
import { useTestDatabase } from "../../support/database.ts";
import { jobRows, testJob, until, useJobTestbed } from "./job-test-kit.ts";

const db = useTestDatabase();
const testbed = useJobTestbed(db);
const sql = () => db.current.sql;

/** An in-process wake-up that counts what it is asked to publish and never wakes anyone. */
function countingSignal() {
  const signal = {
    published: 0,
    subscribe: () => () => {},
    publish: async () => {
      signal.published++;
    },
  };
  return signal satisfies Pick<ChangeSignal, "subscribe" | "publish">;
}

type Signal = ReturnType<typeof countingSignal>;

/** A worker that polls only when it starts: a job it runs later reached it as a follow-up. */
const POLL_NEVER = 600_000;

const schedulerIn = (tx: Queryable, signal: Signal, followUp?: FollowUp) =>
  createPostgresJobScheduler({ sql: tx, wake: signal, ...(followUp ? { followUp } : {}) });

/** Enqueues `kind` in the transaction of the running job `job`, as its follow-up. */
const followUpIn = (tx: Queryable, signal: Signal, job: JobContext, kind: string, payload: StoredPayload = {}) =>
  schedulerIn(tx, signal, job.followUp).enqueueFollowUp(testJob(kind)(payload));

/** A `pay` job queued from outside any job, and the counting wake-up its enqueue went through. */
async function queuePay(payload: StoredPayload = {}): Promise<Signal> {
  const signal = countingSignal();
  await schedulerIn(sql(), signal).enqueue(testJob("pay")(payload));
  return signal;
}

/** A worker that polls once, as it starts: a job it runs later came to it as a follow-up. */
function startLoneWorker(signal: Signal, handlers: Readonly<Record<string, JobHandler>>) {
  testbed.worker({ wake: signal, pollIntervalMs: POLL_NEVER, handlers }).start();
}

const rowsOf = async () =>
  (await jobRows(sql())).map((row) => [row.kind, row.state, row.attempts, row.locked_by] as const);

describe("a follow-up enqueued in the transaction of the job that caused it", () => {
  test("runs next on the same worker, without a wake-up or a poll, as its first attempt", async () => {
    const signal = await queuePay({ order: "o-1" });
    const ran: string[] = [];
    startLoneWorker(signal, {
      pay: async (payload, job) => {
        ran.push("pay");
        await sql().begin((tx) => followUpIn(tx, signal, job, "deliver", { order: payload.order }));
      },
      deliver: async (payload) => {
        ran.push(`deliver ${String(payload.order)}`);
      },
    });
    await until(async () => ran.length === 2 && (await jobRows(sql())).every((row) => row.state === "done"));
    expect(ran).toEqual(["pay", "deliver o-1"]);
    expect(await rowsOf()).toEqual([
      ["pay", "done", 1, null],
      ["deliver", "done", 1, null],
    ]);
    // Only the first enqueue, from outside any job, woke anyone.
    expect(signal.published).toBe(1);
  });

  test("is never run when the transaction that enqueued it rolled back", async () => {
    const signal = await queuePay();
    let delivered = 0;
    startLoneWorker(signal, {
      pay: async (_, job) => {
        await sql()
          .begin(async (tx) => {
            await followUpIn(tx, signal, job, "deliver");
            throw new Error("the payment could not be recorded");
          })
          .catch(() => {});
      },
      deliver: async () => {
        delivered++;
      },
    });
    await until(async () => (await jobRows(sql()))[0]?.state === "done");
    await Bun.sleep(50);
    expect(delivered).toBe(0);
    expect(await rowsOf()).toEqual([["pay", "done", 1, null]]);
  });

  test("is one per run: a second one, and one due later, are queued with a wake-up for any worker", async () => {
    const later = new Date(Date.now() + 3_600_000);
    const signal = await queuePay();
    const delivered: unknown[] = [];
    startLoneWorker(signal, {
      pay: async (_, job) => {
        await sql().begin(async (tx) => {
          const jobs = schedulerIn(tx, signal, job.followUp);
          await jobs.enqueueFollowUp(testJob("remind")({}, { runAt: later }));
          await jobs.enqueueFollowUp(testJob("deliver")({ n: 1 }));
          await jobs.enqueueFollowUp(testJob("deliver")({ n: 2 }));
        });
      },
      deliver: async (payload) => {
        delivered.push(payload.n);
      },
    });
    await until(() => delivered.length === 1);
    await Bun.sleep(50);
    // This worker never polls again: the second delivery waits for whichever worker its wake-up reaches.
    expect(delivered).toEqual([1]);
    expect(await rowsOf()).toEqual([
      ["pay", "done", 1, null],
      ["remind", "pending", 0, null],
      ["deliver", "done", 1, null],
      ["deliver", "pending", 0, null],
    ]);
    // The first enqueue and the two left in the queue woke the workers; the follow-up did not.
    expect(signal.published).toBe(3);
  });

  test("is claimed even when the job that caused it failed and retries", async () => {
    const signal = await queuePay();
    const ran: string[] = [];
    startLoneWorker(signal, {
      pay: async (_, job) => {
        ran.push(`pay ${job.attempt}`);
        await sql().begin((tx) => followUpIn(tx, signal, job, "deliver", { key: "deliver:o-1" }));
        throw new Error("the receipt could not be sent");
      },
      deliver: async () => {
        ran.push("deliver");
      },
    });
    await until(async () => (await jobRows(sql(), "deliver"))[0]?.state === "done");
    expect(ran).toEqual(["pay 1", "deliver"]);
    expect((await rowsOf())[0]).toEqual(["pay", "pending", 1, null]);
  });

  test("runs once when another worker's poll took it first", async () => {
    const signal = await queuePay();
    const runs: number[] = [];
    const handlers = {
      pay: async (_: StoredPayload, job: JobContext) => {
        await sql().begin((tx) => followUpIn(tx, signal, job, "deliver"));
        // Long enough for the other worker's 20 ms poll to find the delivery pending.
        await until(async () => (await jobRows(sql(), "deliver"))[0]?.state !== "pending");
      },
      deliver: async (_: StoredPayload, job: JobContext) => {
        runs.push(job.attempt);
      },
    };
    testbed.worker({ wake: signal, pollIntervalMs: POLL_NEVER, handlers }).start();
    await until(async () => (await jobRows(sql(), "pay"))[0]?.state === "running");
    testbed.worker({ wake: signal, pollIntervalMs: 20, handlers }).start();
    await until(async () => (await jobRows(sql())).every((row) => row.state === "done"));
    await Bun.sleep(50);
    expect(runs).toEqual([1]);
  });

  test("stays in the queue, unrun, when its worker stops first", async () => {
    const signal = await queuePay();
    let delivered = 0;
    let stopped: Promise<void> | undefined;
    const worker = testbed.worker({
      wake: signal,
      pollIntervalMs: POLL_NEVER,
      handlers: {
        pay: async (_, job) => {
          await sql().begin((tx) => followUpIn(tx, signal, job, "deliver"));
          stopped = worker.stop({ timeoutMs: 5_000 });
        },
        deliver: async () => {
          delivered++;
        },
      },
    });
    worker.start();
    await until(() => stopped !== undefined);
    await stopped;
    expect(delivered).toBe(0);
    expect(await rowsOf()).toEqual([
      ["pay", "done", 1, null],
      ["deliver", "pending", 0, null],
    ]);
  });

  test("whose worker died before claiming it is run by any worker's poll, as its first attempt", async () => {
    const signal = countingSignal();
    const died = emptyFollowUp();
    await sql().begin((tx) => schedulerIn(tx, signal, died).enqueueFollowUp(testJob("deliver")({})));
    expect(died.jobId).toBeDefined();
    expect(signal.published).toBe(0);
    const runs: number[] = [];
    testbed
      .worker({
        wake: signal,
        pollIntervalMs: 20,
        handlers: {
          deliver: async (_, job) => {
            runs.push(job.attempt);
          },
        },
      })
      .start();
    await until(async () => (await jobRows(sql()))[0]?.state === "done");
    expect(runs).toEqual([1]);
  });

  test("enqueued after the handler returned is an ordinary job, woken like any other", async () => {
    const signal = await queuePay();
    let late: Promise<void> | undefined;
    startLoneWorker(signal, {
      pay: async (_, job) => {
        late = Bun.sleep(20).then(() => followUpIn(sql(), signal, job, "late"));
      },
      late: async () => {},
    });
    await until(() => late !== undefined);
    await late;
    await until(async () => (await jobRows(sql(), "pay"))[0]?.state === "done");
    expect(await rowsOf()).toEqual([
      ["pay", "done", 1, null],
      ["late", "pending", 0, null],
    ]);
    expect(signal.published).toBe(2);
  });

  test("outside any job's transaction is an ordinary job, woken like any other", async () => {
    const signal = countingSignal();
    await schedulerIn(sql(), signal).enqueueFollowUp(testJob("deliver")({}));
    expect(await rowsOf()).toEqual([["deliver", "pending", 0, null]]);
    expect(signal.published).toBe(1);
  });
});
