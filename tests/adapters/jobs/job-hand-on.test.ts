import { describe, expect, test } from "bun:test";
import { newHandOn, runHandingOn } from "../../../adapters/jobs/job-hand-on.ts";
import type { JobWorkerDeps } from "../../../adapters/jobs/job-worker.ts";
import { createPostgresJobScheduler } from "../../../adapters/jobs/postgres-job-scheduler.ts";
import type { Queryable } from "../../../adapters/postgres/database.ts";
import type { ChangeSignal } from "../../../application/shared/ports.ts";
import { useTestDatabase } from "../../support/database.ts";
import { jobRows, until, useJobTestbed } from "./job-test-kit.ts";

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

/** A worker that polls only when it starts: anything it runs later reached it without the queue's wake-ups. */
const POLL_NEVER = 600_000;

type Signal = ReturnType<typeof countingSignal>;

const enqueue = (db: Queryable, signal: Signal, kind: string, payload: Record<string, unknown> = {}) =>
  createPostgresJobScheduler({ sql: db, wake: signal }).enqueue({ kind, payload });

/** A `pay` job queued from outside any job, and the counting wake-up its enqueue went through. */
async function queuePay(): Promise<Signal> {
  const signal = countingSignal();
  await enqueue(sql(), signal, "pay");
  return signal;
}

/** A worker that polls once, as it starts: a job it runs later came to it handed on. */
function startLoneWorker(signal: Signal, handlers: JobWorkerDeps["handlers"]) {
  testbed.worker({ wake: signal, pollIntervalMs: POLL_NEVER, handlers }).start();
}

const rowsOf = async () =>
  (await jobRows(sql())).map((row) => [row.kind, row.state, row.attempts, row.locked_by] as const);

describe("a job handed on by the job that enqueued it", () => {
  test("runs next on the same worker, without a wake-up or a poll, as its first attempt", async () => {
    const signal = countingSignal();
    await enqueue(sql(), signal, "pay", { order: "o-1" });
    const ran: string[] = [];
    startLoneWorker(signal, {
      pay: async (payload) => {
        ran.push("pay");
        await sql().begin((tx) => enqueue(tx, signal, "deliver", { order: payload.order }));
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
      pay: async () => {
        await sql()
          .begin(async (tx) => {
            await enqueue(tx, signal, "deliver");
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

  test("is only the first due job: later ones, and jobs due later, are queued with a wake-up for any worker", async () => {
    const later = new Date(Date.now() + 3_600_000);
    const signal = await queuePay();
    const delivered: unknown[] = [];
    startLoneWorker(signal, {
      pay: async () => {
        await sql().begin(async (tx) => {
          const jobs = createPostgresJobScheduler({ sql: tx, wake: signal });
          await jobs.enqueue({ kind: "remind", payload: {}, runAt: later });
          await jobs.enqueue({ kind: "deliver", payload: { n: 1 } });
          await jobs.enqueue({ kind: "deliver", payload: { n: 2 } });
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
    // The first enqueue and the two left in the queue woke the workers; the one handed on did not.
    expect(signal.published).toBe(3);
  });

  test("runs once when another worker's poll took it first", async () => {
    const signal = await queuePay();
    const runs: number[] = [];
    const handlers = {
      pay: async () => {
        await sql().begin((tx) => enqueue(tx, signal, "deliver"));
        // Long enough for the other worker's 20 ms poll to find the delivery pending.
        await until(async () => (await jobRows(sql(), "deliver"))[0]?.state !== "pending");
      },
      deliver: async (_: unknown, context: { attempt: number }) => {
        runs.push(context.attempt);
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
        pay: async () => {
          await sql().begin((tx) => enqueue(tx, signal, "deliver"));
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
    const dead = newHandOn();
    await runHandingOn(dead, () => sql().begin((tx) => enqueue(tx, signal, "deliver")));
    expect(dead.next).toBeDefined();
    expect(signal.published).toBe(0);
    const runs: number[] = [];
    testbed
      .worker({
        wake: signal,
        pollIntervalMs: 20,
        handlers: {
          deliver: async (_, context) => {
            runs.push(context.attempt);
          },
        },
      })
      .start();
    await until(async () => (await jobRows(sql()))[0]?.state === "done");
    expect(runs).toEqual([1]);
  });

  test("an enqueue after the handler returned is an ordinary one", async () => {
    const handOn = newHandOn();
    let later: Promise<void> | undefined;
    const signal = countingSignal();
    await runHandingOn(handOn, async () => {
      later = Bun.sleep(10).then(() => enqueue(sql(), signal, "late"));
    });
    await later;
    expect(handOn.next).toBeUndefined();
    expect(await rowsOf()).toEqual([["late", "pending", 0, null]]);
    expect(signal.published).toBe(1);
  });
});
