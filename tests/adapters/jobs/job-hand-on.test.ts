import { describe, expect, test } from "bun:test";
import { type HandOn, runHandingOn } from "../../../adapters/jobs/job-hand-on.ts";
import { createPostgresJobScheduler } from "../../../adapters/jobs/postgres-job-scheduler.ts";
import type { Queryable } from "../../../adapters/postgres/database.ts";
import { createPostgresUnitOfWork } from "../../../adapters/postgres/unit-of-work.ts";
import type { OpsAlerts } from "../../../application/alerts/ports.ts";
import type { ChangeSignal } from "../../../application/shared/ports.ts";
import { useTestDatabase } from "../../support/database.ts";
import { capturingLogger, jobRows, until, useJobTestbed } from "./job-test-kit.ts";

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

/** A worker that polls only when it starts: anything it runs later reached it without the queue. */
const POLL_NEVER = 600_000;

describe("a job handed on by the job that enqueued it", () => {
  test("runs next on the same worker, without a wake-up or a claim, as the job's first attempt", async () => {
    const signal = countingSignal();
    const jobs = (tx: Queryable) => createPostgresJobScheduler({ sql: tx, wake: signal });
    await jobs(sql()).enqueue({ kind: "pay", payload: { order: "o-1" } });
    const ran: string[] = [];
    testbed
      .worker({
        wake: signal,
        pollIntervalMs: POLL_NEVER,
        workerId: "w-hand",
        handlers: {
          pay: async (payload) => {
            ran.push("pay");
            await sql().begin((tx) => jobs(tx).enqueue({ kind: "deliver", payload: { order: payload.order } }));
          },
          deliver: async (payload) => {
            ran.push(`deliver ${String(payload.order)}`);
          },
        },
      })
      .start();
    await until(async () => (await jobRows(sql())).every((row) => row.state === "done") && ran.length === 2);
    expect(ran).toEqual(["pay", "deliver o-1"]);
    expect((await jobRows(sql())).map((row) => [row.kind, row.state, row.attempts, row.locked_by])).toEqual([
      ["pay", "done", 1, null],
      ["deliver", "done", 1, null],
    ]);
    // Only the first enqueue, from outside any job, woke anyone.
    expect(signal.published).toBe(1);
  });

  test("starts before the enqueuing job's outcome is recorded when the unit of work saw its insert commit", async () => {
    const signal = countingSignal();
    const jobsFor = (tx: Queryable) => createPostgresJobScheduler({ sql: tx, wake: signal });
    const uow = createPostgresUnitOfWork(sql(), jobsFor, {
      mailDomain: "shop.test",
      alertsFor: () => ({}) as OpsAlerts,
    });
    // One worker through the unit of work, one through a bare transaction: only the first knows the commit.
    for (const [name, enqueue] of [
      ["uow", () => uow.run((scope) => scope.jobs.enqueue({ kind: "deliver", payload: { via: "uow" } }))],
      ["bare", () => sql().begin((tx) => jobsFor(tx).enqueue({ kind: "deliver", payload: { via: "bare" } }))],
    ] as const) {
      const { logger, lines } = capturingLogger();
      let payRecordedFirst: boolean | undefined;
      await sql()`delete from jobs`;
      await jobsFor(sql()).enqueue({ kind: "pay", payload: {} });
      testbed
        .worker({
          wake: signal,
          logger,
          pollIntervalMs: POLL_NEVER,
          handlers: {
            pay: async () => {
              await enqueue();
            },
            deliver: async () => {
              payRecordedFirst = lines().some((line) => line.msg === "job done" && line.kind === "pay");
            },
          },
        })
        .start();
      await until(
        async () => (await jobRows(sql())).every((row) => row.state === "done") && payRecordedFirst !== undefined,
      );
      expect([name, payRecordedFirst]).toEqual([name, name === "bare"]);
    }
  });

  test("is never run when the transaction that enqueued it rolled back", async () => {
    const signal = countingSignal();
    await createPostgresJobScheduler({ sql: sql(), wake: signal }).enqueue({ kind: "pay", payload: {} });
    let delivered = 0;
    testbed
      .worker({
        wake: signal,
        pollIntervalMs: POLL_NEVER,
        handlers: {
          pay: async () => {
            await sql()
              .begin(async (tx) => {
                await createPostgresJobScheduler({ sql: tx, wake: signal }).enqueue({ kind: "deliver", payload: {} });
                throw new Error("the payment could not be recorded");
              })
              .catch(() => {});
          },
          deliver: async () => {
            delivered++;
          },
        },
      })
      .start();
    await until(async () => (await jobRows(sql()))[0]?.state === "done");
    await Bun.sleep(50);
    expect(delivered).toBe(0);
    expect((await jobRows(sql())).map((row) => row.kind)).toEqual(["pay"]);
  });

  test("is only the first due job: later ones, and jobs due later, are queued for any worker", async () => {
    const signal = countingSignal();
    const later = new Date(Date.now() + 3_600_000);
    let seen: { kind: string; state: string; locked_by: string | null }[] = [];
    await createPostgresJobScheduler({ sql: sql(), wake: signal }).enqueue({ kind: "pay", payload: {} });
    testbed
      .worker({
        wake: signal,
        pollIntervalMs: POLL_NEVER,
        workerId: "w-first",
        handlers: {
          pay: async () => {
            await sql().begin(async (tx) => {
              const jobs = createPostgresJobScheduler({ sql: tx, wake: signal });
              await jobs.enqueue({ kind: "remind", payload: {}, runAt: later });
              await jobs.enqueue({ kind: "deliver", payload: { n: 1 } });
              await jobs.enqueue({ kind: "deliver", payload: { n: 2 } });
            });
            seen = (await jobRows(sql())).filter((row) => row.kind !== "pay");
          },
          deliver: async () => {},
        },
      })
      .start();
    await until(() => seen.length === 3);
    expect(seen.map((row) => [row.kind, row.state, row.locked_by])).toEqual([
      ["remind", "pending", null],
      ["deliver", "running", "w-first"],
      ["deliver", "pending", null],
    ]);
    // The first enqueue and the two left behind woke the workers, as any enqueue does; the handed-on one did not.
    expect(signal.published).toBe(3);
  });

  test("goes back to the queue, unrun, when its worker stops first", async () => {
    const signal = countingSignal();
    await createPostgresJobScheduler({ sql: sql(), wake: signal }).enqueue({ kind: "pay", payload: {} });
    let delivered = 0;
    let stopped: Promise<void> | undefined;
    const worker = testbed.worker({
      wake: signal,
      pollIntervalMs: POLL_NEVER,
      handlers: {
        pay: async () => {
          await sql().begin((tx) =>
            createPostgresJobScheduler({ sql: tx, wake: signal }).enqueue({ kind: "deliver", payload: {} }),
          );
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
    expect((await jobRows(sql())).map((row) => [row.kind, row.state, row.attempts, row.locked_by])).toEqual([
      ["pay", "done", 1, null],
      ["deliver", "pending", 0, null],
    ]);
  });

  test("whose worker died before running it is reclaimed by another worker once its lease expires", async () => {
    const signal = countingSignal();
    const dead: HandOn = { workerId: "w-died", leaseMs: 200, defaultMaxAttempts: 8, open: true, next: undefined };
    await runHandingOn(dead, () =>
      sql().begin((tx) =>
        createPostgresJobScheduler({ sql: tx, wake: signal }).enqueue({ kind: "deliver", payload: {} }),
      ),
    );
    expect(dead.next?.kind).toBe("deliver");
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
    await Bun.sleep(100);
    expect(runs).toEqual([]);
    await until(async () => (await jobRows(sql()))[0]?.state === "done");
    expect(runs).toEqual([2]);
  });

  test("whose lease ran low while the enqueuing job went on is renewed before it runs, so no other worker takes it", async () => {
    const signal = countingSignal();
    await createPostgresJobScheduler({ sql: sql(), wake: signal }).enqueue({ kind: "pay", payload: {} });
    const runs: number[] = [];
    const handlers = {
      pay: async () => {
        await sql().begin((tx) =>
          createPostgresJobScheduler({ sql: tx, wake: signal }).enqueue({ kind: "deliver", payload: {} }),
        );
        // Past half the handed-on job's lease: left as it is, it would expire before its first heartbeat.
        await Bun.sleep(330);
      },
      deliver: async (_: unknown, context: { attempt: number }) => {
        runs.push(context.attempt);
        await Bun.sleep(200);
      },
    };
    // Two workers polling every 20 ms: either would take a job whose lease expired.
    testbed.worker({ wake: signal, leaseMs: 400, handlers }).start();
    testbed.worker({ wake: signal, leaseMs: 400, handlers }).start();
    await until(async () => (await jobRows(sql())).every((row) => row.state === "done") && runs.length > 0);
    await Bun.sleep(100);
    expect(runs).toEqual([1]);
    expect((await jobRows(sql())).map((row) => [row.kind, row.attempts])).toEqual([
      ["pay", 1],
      ["deliver", 1],
    ]);
  });

  test("an enqueue after the handler returned is an ordinary one", async () => {
    const handOn: HandOn = { workerId: "w-late", leaseMs: 30_000, defaultMaxAttempts: 8, open: true, next: undefined };
    let later: Promise<void> | undefined;
    const signal = countingSignal();
    await runHandingOn(handOn, async () => {
      later = Bun.sleep(10).then(() =>
        createPostgresJobScheduler({ sql: sql(), wake: signal }).enqueue({ kind: "late", payload: {} }),
      );
    });
    await later;
    expect(handOn.next).toBeUndefined();
    expect((await jobRows(sql())).map((row) => [row.kind, row.state])).toEqual([["late", "pending"]]);
    expect(signal.published).toBe(1);
  });
});
