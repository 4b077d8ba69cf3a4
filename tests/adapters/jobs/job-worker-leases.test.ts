import { describe, expect, test } from "bun:test";
import { createPostgresJobLeases } from "../../../adapters/jobs/postgres-job-leases.ts";
import { createPostgresJobScheduler } from "../../../adapters/jobs/postgres-job-scheduler.ts";
import { createPostgresChangeSignal } from "../../../adapters/postgres/pg-change-signal.ts";
import { createInProcessChangeSignal } from "../../../adapters/signals/in-process-change-signal.ts";
import { hasRealPostgres, useTestDatabase } from "../../support/database.ts";
import { capturingLogger, deferred, jobRows, silentLogger, testJob, until, useJobTestbed } from "./job-test-kit.ts";

const db = useTestDatabase();
const testbed = useJobTestbed(db);
const sql = () => db.current.sql;
const enqueue = (kind = "work") =>
  createPostgresJobScheduler({ sql: sql(), wake: createInProcessChangeSignal() }).enqueue(testJob(kind)({}));

describe("job leases across workers", () => {
  test.skipIf(!hasRealPostgres)("two instances run each of 200 jobs exactly once, never twice at once", async () => {
    const runs = new Map<string, number>();
    const running = new Set<string>();
    let overlaps = 0;
    const handledBy = { a: 0, b: 0 };
    const handlerFor = (instance: "a" | "b") => async (payload: Readonly<Record<string, unknown>>) => {
      const n = String(payload.n);
      if (running.has(n)) overlaps++;
      running.add(n);
      runs.set(n, (runs.get(n) ?? 0) + 1);
      handledBy[instance]++;
      await Bun.sleep(Math.random() * 3);
      running.delete(n);
    };
    const signals = [];
    for (const instance of ["a", "b"] as const) {
      const pool = await testbed.pool(4);
      const signal = createPostgresChangeSignal({ sql: pool, logger: silentLogger() });
      signals.push(signal);
      testbed
        .worker({
          sql: pool,
          wake: signal,
          concurrency: 4,
          pollIntervalMs: 5_000,
          handlers: { work: handlerFor(instance) },
        })
        .start();
    }
    try {
      await until(async () => {
        const [row] = await sql()`
          select count(*)::int as n from pg_stat_activity
          where datname = current_database() and state = 'idle' and query ilike 'listen%mkt_jobs%'`;
        return row?.n === 2;
      });
      await sql().begin(async (tx) => {
        const scheduler = createPostgresJobScheduler({ sql: tx, wake: "notify" });
        for (let n = 0; n < 200; n++) await scheduler.enqueue(testJob("work")({ n }));
      });
      await until(async () => (await jobRows(sql())).every((r) => r.state === "done"), 10_000);

      expect(runs.size).toBe(200);
      expect([...runs.values()].every((count) => count === 1)).toBeTrue();
      expect(overlaps).toBe(0);
      expect(handledBy.a).toBeGreaterThan(0);
      expect(handledBy.b).toBeGreaterThan(0);
      expect((await jobRows(sql())).every((r) => r.attempts === 1)).toBeTrue();
    } finally {
      await Promise.all(signals.map((s) => s.close()));
    }
  });

  test.skipIf(!hasRealPostgres)(
    "a crashed instance's job is reclaimed after its lease and completed once",
    async () => {
      const crashedPool = await testbed.pool(2);
      const claimed = deferred();
      testbed
        .worker({
          sql: crashedPool,
          wake: createInProcessChangeSignal(),
          leaseMs: 300,
          handlers: {
            work: () => {
              claimed.resolve();
              return new Promise<void>(() => {});
            },
          },
        })
        .start();
      await enqueue();
      await claimed.promise;
      // The instance dies: its connections close, so no heartbeat renews the lease.
      await crashedPool.end({ timeout: 0 });
      const crashedAt = performance.now();

      let survivorRuns = 0;
      testbed
        .worker({ wake: createInProcessChangeSignal(), handlers: { work: async () => void survivorRuns++ } })
        .start();
      await until(async () => (await jobRows(sql()))[0]?.state === "done", 3_000);
      expect(performance.now() - crashedAt).toBeGreaterThan(200);
      expect(survivorRuns).toBe(1);
      expect((await jobRows(sql()))[0]).toMatchObject({ state: "done", attempts: 2, locked_by: null });
    },
  );

  test("a worker whose lease was taken over cannot overwrite the new owner's outcome", async () => {
    const { logger, lines } = capturingLogger();
    const started = deferred();
    const lateFailure = deferred();
    const old = testbed.worker({
      logger,
      wake: createInProcessChangeSignal(),
      leaseMs: 60_000,
      handlers: {
        work: async () => {
          started.resolve();
          await lateFailure.promise;
          throw new Error("late failure from the old worker");
        },
      },
    });
    old.start();
    await enqueue();
    await started.promise;
    // The old worker stalls past its lease (say, a long GC pause), and another worker takes over.
    await sql()`update jobs set locked_until = now() - interval '1 second'`;
    let newOwnerRuns = 0;
    testbed
      .worker({ wake: createInProcessChangeSignal(), handlers: { work: async () => void newOwnerRuns++ } })
      .start();
    await until(async () => (await jobRows(sql()))[0]?.state === "done");

    lateFailure.resolve();
    await until(() => lines().some((l) => l.msg === "job outcome dropped: its lease passed to another worker"));
    expect(newOwnerRuns).toBe(1);
    expect((await jobRows(sql()))[0]).toMatchObject({ state: "done", attempts: 2, last_error: null, locked_by: null });
  });

  test("the heartbeat keeps a long job's lease: another worker never reclaims it", async () => {
    const other = hasRealPostgres ? await testbed.pool(2) : sql();
    testbed
      .worker({
        wake: createInProcessChangeSignal(),
        leaseMs: 400,
        handlers: { work: () => Bun.sleep(1_300) },
      })
      .start();
    await enqueue();
    await until(async () => (await jobRows(sql()))[0]?.state === "running");
    let reclaimed = 0;
    testbed
      .worker({ sql: other, wake: createInProcessChangeSignal(), handlers: { work: async () => void reclaimed++ } })
      .start();
    await until(async () => (await jobRows(sql()))[0]?.state === "done", 3_000);
    expect(reclaimed).toBe(0);
    expect((await jobRows(sql()))[0]).toMatchObject({ state: "done", attempts: 1 });
  });

  test("a job whose final attempt never reported back is dead-lettered, not run again", async () => {
    await sql()`
      insert into jobs (kind, payload, state, attempts, max_attempts, locked_by, locked_until)
      values ('work', '{}', 'running', 3, 3, 'crashed-worker', now() - interval '1 second')`;
    let runs = 0;
    testbed.worker({ wake: createInProcessChangeSignal(), handlers: { work: async () => void runs++ } }).start();
    await until(async () => (await jobRows(sql()))[0]?.state === "dead");
    expect(runs).toBe(0);
    expect((await jobRows(sql()))[0]?.last_error).toBe("The final attempt (3) ended without an outcome.");
  });

  test("a worker takes back its own expired claim whose outcome it could not record, but never one still running here", async () => {
    // Claimed earlier by this same worker, whose outcome write failed: only the lease remembers it.
    await sql()`
      insert into jobs (kind, payload, state, attempts, locked_by, locked_until)
      values ('work', '{"n": "stale"}', 'running', 1, 'worker-one', now() - interval '1 second')`;
    const runs: string[] = [];
    const release = deferred();
    testbed
      .worker({
        workerId: "worker-one",
        leaseMs: 60_000,
        wake: createInProcessChangeSignal(),
        handlers: {
          work: async (payload) => {
            runs.push(String(payload.n));
            // The fresh job's lease is made to expire while it runs (the next heartbeat is 20 s
            // away); polling every 20 ms, the worker must still not claim it a second time.
            if (payload.n === "fresh") await release.promise;
          },
        },
      })
      .start();
    await until(async () => (await jobRows(sql()))[0]?.state === "done");
    expect((await jobRows(sql()))[0]).toMatchObject({ state: "done", attempts: 2 });
    await createPostgresJobScheduler({ sql: sql(), wake: createInProcessChangeSignal() }).enqueue(
      testJob("work")({ n: "fresh" }),
    );
    await until(() => runs.includes("fresh"));
    await sql()`update jobs set locked_until = now() - interval '1 second' where payload->>'n' = 'fresh'`;
    await Bun.sleep(600);
    release.resolve();
    await until(async () => (await jobRows(sql())).every((row) => row.state === "done"));
    expect(runs).toEqual(["stale", "fresh"]);
  });
});

describe("the claim's cost", () => {
  test.skipIf(!hasRealPostgres)(
    "does not grow with the jobs finished since the last vacuum: it steps over none of their dead versions",
    async () => {
      const leases = createPostgresJobLeases({
        sql: sql(),
        workerId: "w-cost",
        leaseMs: 60_000,
        defaultMaxAttempts: 3,
      });
      await sql()`alter table jobs set (autovacuum_enabled = false)`;
      try {
        // 6,000 jobs through their lifecycle (pending, running, done) before any vacuum: about
        // half a minute of this queue at 200 orders a second.
        await sql()`insert into jobs (kind, payload) select 'work', '{}' from generate_series(1, 6000)`;
        await sql()`update jobs set state = 'running', locked_by = 'w-gone', locked_until = now() + interval '1 minute'`;
        await sql()`update jobs set state = 'done', locked_by = null, locked_until = null`;
        await enqueue();

        // Buffers of the table and its indexes the claim reads (this backend's counts, before it reports them).
        const buffers = await sql().begin(async (tx) => {
          const read = async () => {
            const [row] = await tx<{ n: number }[]>`
              select (pg_stat_get_xact_blocks_fetched('jobs'::regclass)
                + (select sum(pg_stat_get_xact_blocks_fetched(indexrelid)) from pg_index where indrelid = 'jobs'::regclass))::int
                as n`;
            return row?.n ?? 0;
          };
          const inTx = createPostgresJobLeases({ sql: tx, workerId: "w-cost", leaseMs: 60_000, defaultMaxAttempts: 3 });
          const before = await read();
          expect(await inTx.claim(4)).toHaveLength(1);
          return (await read()) - before;
        });
        // One index over both states made the claim visit each finished job's two dead versions: 12,000 buffers.
        expect(buffers).toBeLessThan(1_000);
        expect(await leases.claim(4)).toEqual([]);
      } finally {
        await sql()`alter table jobs reset (autovacuum_enabled)`;
      }
    },
  );
});
