import { describe, expect, test } from "bun:test";
import { JOB_WAKE_TOPIC } from "../../../adapters/jobs/job-wake-up.ts";
import { createPostgresJobScheduler } from "../../../adapters/jobs/postgres-job-scheduler.ts";
import type { Queryable } from "../../../adapters/postgres/database.ts";
import { createPostgresChangeSignal } from "../../../adapters/postgres/pg-change-signal.ts";
import { createInProcessChangeSignal } from "../../../adapters/signals/in-process-change-signal.ts";
import { hasRealPostgres, useTestDatabase } from "../../support/database.ts";
import { jobRows, silentLogger, testJob, until, useJobTestbed } from "./job-test-kit.ts";

const db = useTestDatabase();
useJobTestbed(db);

/** A signal that counts what the scheduler publishes (embedded mode). */
function countingSignal() {
  const signal = createInProcessChangeSignal();
  let published = 0;
  signal.subscribe(JOB_WAKE_TOPIC, () => published++);
  return { signal, published: () => published };
}

describe("postgres job scheduler", () => {
  test("a job enqueued in a transaction that rolls back does not exist; a committed one does", async () => {
    const { signal } = countingSignal();
    const enqueueIn = (tx: Queryable) => createPostgresJobScheduler({ sql: tx, wake: signal }).enqueue;
    await expect(
      db.current.sql.begin(async (tx) => {
        await enqueueIn(tx)(testJob("rolled_back")({ n: 1 }));
        throw new Error("the state change failed");
      }),
    ).rejects.toThrow("the state change failed");
    expect(await jobRows(db.current.sql)).toEqual([]);

    await db.current.sql.begin((tx) => enqueueIn(tx)(testJob("committed")({ n: 2 })));
    const rows = await jobRows(db.current.sql);
    expect(rows.map((r) => [r.kind, r.state, r.attempts])).toEqual([["committed", "pending", 0]]);
  });

  test("stores payload, run_at and a per-job attempt limit", async () => {
    const runAt = new Date(Date.now() + 60_000);
    const scheduler = createPostgresJobScheduler({ sql: db.current.sql, wake: createInProcessChangeSignal() });
    await scheduler.enqueue(testJob("later")({ order_id: "o-1", amounts: [1, 2] }, { runAt, maxAttempts: 3 }));
    const [row] = await db.current.sql`select payload, run_at, max_attempts from jobs`;
    expect(row?.payload).toEqual({ order_id: "o-1", amounts: [1, 2] });
    expect(row?.run_at).toEqual(runAt);
    expect(row?.max_attempts).toBe(3);
  });

  test("a dedupe key ignores a second live job, without a wake-up, and allows one after the first finished", async () => {
    const { signal, published } = countingSignal();
    const scheduler = createPostgresJobScheduler({ sql: db.current.sql, wake: signal });
    const job = testJob("payment_event")({ event_id: "evt_1", key: "gateway_a:evt_1" });
    await scheduler.enqueue(job);
    await scheduler.enqueue(job);
    expect(await jobRows(db.current.sql)).toHaveLength(1);
    expect(published()).toBe(1);

    await db.current
      .sql`update jobs set state = 'running', locked_by = 'w', locked_until = now() + interval '1 minute'`;
    await scheduler.enqueue(job);
    expect(await jobRows(db.current.sql)).toHaveLength(1);

    await db.current.sql`update jobs set state = 'done', locked_by = null, locked_until = null`;
    await scheduler.enqueue(job);
    const rows = await jobRows(db.current.sql);
    expect(rows.map((r) => r.state)).toEqual(["done", "pending"]);
    expect(published()).toBe(2);
  });

  test.skipIf(!hasRealPostgres)("NOTIFY reaches listeners on commit only, never after a rollback", async () => {
    const listener = createPostgresChangeSignal({ sql: db.current.sql, logger: silentLogger() });
    let heard = 0;
    listener.subscribe(JOB_WAKE_TOPIC, () => heard++);
    try {
      // The signal calls its listeners once LISTEN is in place (deliveries may have lapsed before).
      await until(() => heard === 1);
      heard = 0;

      let heardBeforeCommit = -1;
      await expect(
        db.current.sql.begin(async (tx) => {
          await createPostgresJobScheduler({ sql: tx, wake: "notify" }).enqueue(testJob("k")({}));
          await Bun.sleep(100);
          heardBeforeCommit = heard;
          throw new Error("rollback");
        }),
      ).rejects.toThrow("rollback");
      await Bun.sleep(100);
      expect(heardBeforeCommit).toBe(0);
      expect(heard).toBe(0);

      await db.current.sql.begin(async (tx) => {
        const scheduler = createPostgresJobScheduler({ sql: tx, wake: "notify" });
        await scheduler.enqueue(testJob("k")({ n: 1 }));
        await scheduler.enqueue(testJob("k")({ n: 2 }));
        await Bun.sleep(100);
        heardBeforeCommit = heard;
      });
      const committedAt = performance.now();
      while (heard === 0 && performance.now() - committedAt < 1_000) await Bun.sleep(2);
      await Bun.sleep(50);
      expect(heardBeforeCommit).toBe(0);
      // PostgreSQL folds identical notifications of one transaction into one.
      expect(heard).toBe(1);
      expect(await jobRows(db.current.sql, "k")).toHaveLength(2);
    } finally {
      await listener.close();
    }
  });
});
