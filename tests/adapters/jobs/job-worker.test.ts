import { describe, expect, test } from "bun:test";
import { createPostgresJobScheduler } from "../../../adapters/jobs/postgres-job-scheduler.ts";
import { openDatabase } from "../../../adapters/postgres/database.ts";
import { createPostgresChangeSignal } from "../../../adapters/postgres/pg-change-signal.ts";
import { createInProcessChangeSignal } from "../../../adapters/signals/in-process-change-signal.ts";
import { PermanentJobFailure, UpstreamRateLimited, UpstreamServerError } from "../../../application/shared/errors.ts";
import type { JobContext } from "../../../application/shared/jobs.ts";
import { defineJob } from "../../../application/shared/jobs.ts";
import { hasRealPostgres, useTestDatabase } from "../../support/database.ts";
import { startTcpProxy } from "../../support/tcp-proxy.ts";
import {
  capturingLogger,
  deferred,
  jobRows,
  silentLogger,
  testJob,
  until,
  untilListening,
  useJobTestbed,
} from "./job-test-kit.ts";

const db = useTestDatabase();
const testbed = useJobTestbed(db);
const sql = () => db.current.sql;

/** Enqueues outside any transaction: committed before the in-process wake-up on any pool size. */
const enqueue = (signal = createInProcessChangeSignal(), kind = "work", payload = {}) =>
  createPostgresJobScheduler({ sql: sql(), wake: signal }).enqueue(testJob(kind)(payload));

describe("job worker wake-ups", () => {
  test.skipIf(!hasRealPostgres)("runs a job within milliseconds of commit through NOTIFY, not the poll", async () => {
    const signal = createPostgresChangeSignal({ sql: sql(), logger: silentLogger() });
    let startedAt = 0;
    testbed
      .worker({
        wake: signal,
        pollIntervalMs: 5_000,
        handlers: {
          ping: async () => {
            startedAt = performance.now();
          },
        },
      })
      .start();
    try {
      await untilListening(sql());
      await Bun.sleep(20);
      await sql().begin((tx) => createPostgresJobScheduler({ sql: tx, wake: "notify" }).enqueue(testJob("ping")({})));
      const committedAt = performance.now();
      await until(async () => (await jobRows(sql()))[0]?.state === "done", 2_000);
      expect(startedAt - committedAt).toBeLessThan(500);
    } finally {
      await signal.close();
    }
  });

  test("embedded mode: an in-process wake-up sent before commit still runs the job right after it", async () => {
    // Embedded mode's pool is one connection: the worker's claim queues behind the transaction.
    const single = hasRealPostgres ? await testbed.pool(1) : sql();
    const signal = createInProcessChangeSignal();
    let startedAt = 0;
    testbed
      .worker({
        sql: single,
        wake: signal,
        pollIntervalMs: 5_000,
        handlers: {
          ping: async () => {
            startedAt = performance.now();
          },
        },
      })
      .start();
    await Bun.sleep(20);
    await single.begin(async (tx) => {
      await createPostgresJobScheduler({ sql: tx, wake: signal }).enqueue(testJob("ping")({}));
      await Bun.sleep(50);
    });
    const committedAt = performance.now();
    await until(async () => (await jobRows(sql()))[0]?.state === "done", 2_000);
    expect(startedAt - committedAt).toBeLessThan(500);
  });

  test("never runs more than `concurrency` at once, and a wake-up while busy polls as soon as a slot frees", async () => {
    const signal = createInProcessChangeSignal();
    let active = 0;
    let peak = 0;
    const handler = async () => {
      peak = Math.max(peak, ++active);
      await Bun.sleep(30);
      active--;
    };
    testbed.worker({ wake: signal, concurrency: 3, pollIntervalMs: 5_000, handlers: { work: handler } }).start();
    await Bun.sleep(20);
    const startedAt = performance.now();
    for (let i = 0; i < 10; i++) await enqueue(signal);
    await until(async () => (await jobRows(sql())).every((r) => r.state === "done"), 2_000);
    expect(peak).toBe(3);
    expect(performance.now() - startedAt).toBeLessThan(1_000);
  });

  test("polls for jobs that became due later", async () => {
    const runAt = new Date(Date.now() + 150);
    await createPostgresJobScheduler({ sql: sql(), wake: createInProcessChangeSignal() }).enqueue(
      testJob("work")({}, { runAt }),
    );
    let ranAt = 0;
    testbed
      .worker({
        wake: createInProcessChangeSignal(),
        handlers: {
          work: async () => {
            ranAt = Date.now();
          },
        },
      })
      .start();
    await until(() => ranAt > 0);
    expect(ranAt).toBeGreaterThanOrEqual(runAt.getTime() - 5);
  });
});

describe("job worker retries", () => {
  test("a transient failure retries with full-jitter delays; Retry-After floors the delay", async () => {
    const { logger, lines } = capturingLogger();
    const calls: { at: number; context: JobContext }[] = [];
    const handler = async (_: unknown, context: JobContext) => {
      calls.push({ at: performance.now(), context });
      if (context.attempt === 1) throw new UpstreamServerError("provider", 503);
      if (context.attempt === 2) throw new UpstreamRateLimited("provider", 150);
    };
    const backoff = { baseMs: 40, maxMs: 1_000 };
    testbed
      .worker({ wake: createInProcessChangeSignal(), logger, backoff, random: () => 0.5, handlers: { work: handler } })
      .start();
    await enqueue();
    await until(async () => (await jobRows(sql()))[0]?.state === "done");

    const [row] = await jobRows(sql());
    expect(row?.attempts).toBe(3);
    const retries = lines().filter((l) => l.msg === "job failed; retry scheduled");
    // Attempt 1: 0.5 * min(1000, 40 * 2^0) = 20. Attempt 2: 0.5 * 80 = 40, but Retry-After says 150.
    expect(retries.map((l) => [l.attempt, l.delay_ms, l.error_code])).toEqual([
      [1, 20, "PROVIDER_SERVER_ERROR"],
      [2, 150, "PROVIDER_RATE_LIMITED"],
    ]);
    const [first, second, third] = calls;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(19);
    expect((third?.at ?? 0) - (second?.at ?? 0)).toBeGreaterThanOrEqual(149);
    expect(calls.map(({ context: { followUp: _, ...context } }) => context)).toEqual([
      { jobId: row?.id ?? "", attempt: 1, maxAttempts: 8, lastAttempt: false },
      { jobId: row?.id ?? "", attempt: 2, maxAttempts: 8, lastAttempt: false },
      { jobId: row?.id ?? "", attempt: 3, maxAttempts: 8, lastAttempt: false },
    ]);
    // The previous failure stays readable after the success.
    expect(row?.last_error).toContain("rate limiting");
  });

  test("a permanent failure is dead-lettered after one attempt", async () => {
    const failures = {
      permanent: async () => {
        throw new PermanentJobFailure("The order no longer exists.");
      },
      not_transient: async () => {
        throw Object.assign(new Error("The provider refused the product reference."), { transient: false });
      },
    };
    testbed.worker({ wake: createInProcessChangeSignal(), handlers: failures }).start();
    await enqueue(undefined, "permanent");
    await enqueue(undefined, "not_transient");
    await until(async () => (await jobRows(sql())).every((r) => r.state === "dead"));
    expect((await jobRows(sql())).map((r) => [r.kind, r.attempts, r.last_error])).toEqual([
      ["permanent", 1, "The order no longer exists."],
      ["not_transient", 1, "The provider refused the product reference."],
    ]);
  });

  test("a job that always fails is dead after max attempts, with a readable last_error and no stack", async () => {
    const contexts: JobContext[] = [];
    const handler = async (_: unknown, context: JobContext) => {
      contexts.push(context);
      throw new Error(`Attempt ${context.attempt} failed: ${"x".repeat(5_000)}`);
    };
    testbed
      .worker({
        wake: createInProcessChangeSignal(),
        maxAttempts: 3,
        backoff: { baseMs: 5, maxMs: 10 },
        handlers: { work: handler },
      })
      .start();
    await enqueue();
    await until(async () => (await jobRows(sql()))[0]?.state === "dead");
    const [row] = await jobRows(sql());
    expect(row?.attempts).toBe(3);
    expect(row?.last_error?.startsWith("Attempt 3 failed: xxx")).toBeTrue();
    expect(row?.last_error).toHaveLength(1_000);
    expect(row?.last_error).not.toContain("    at ");
    expect(contexts.map((c) => [c.attempt, c.maxAttempts, c.lastAttempt])).toEqual([
      [1, 3, false],
      [2, 3, false],
      [3, 3, true],
    ]);
  });

  test("a job's own attempt limit overrides the worker's", async () => {
    testbed
      .worker({
        wake: createInProcessChangeSignal(),
        backoff: { baseMs: 5, maxMs: 10 },
        handlers: {
          work: async () => {
            throw new Error("still down");
          },
        },
      })
      .start();
    await createPostgresJobScheduler({ sql: sql(), wake: createInProcessChangeSignal() }).enqueue(
      testJob("work")({}, { maxAttempts: 2 }),
    );
    await until(async () => (await jobRows(sql()))[0]?.state === "dead");
    expect((await jobRows(sql()))[0]?.attempts).toBe(2);
  });

  test("a payload its kind cannot read back is dead at once, and its handler never runs", async () => {
    const strict = defineJob({
      kind: "strict",
      read: (fields) => ({ id: fields.string("id") }),
      dedupeKey: ({ id }) => id,
    });
    let ran = 0;
    const handlers = { strict: async () => void ran++ };
    testbed.worker({ wake: createInProcessChangeSignal(), types: { strict }, handlers }).start();
    await sql()`insert into jobs (kind, payload) values ('strict', '{"id": 7}')`;
    await until(async () => (await jobRows(sql()))[0]?.state === "dead");
    expect((await jobRows(sql())).map((r) => [r.attempts, r.last_error])).toEqual([
      [1, "The strict job's payload has no valid id."],
    ]);
    expect(ran).toBe(0);
  });

  test("a job of an unknown kind is dead at once with a clear reason", async () => {
    testbed.worker({ wake: createInProcessChangeSignal(), handlers: {} }).start();
    await enqueue(undefined, "teleport");
    await until(async () => (await jobRows(sql()))[0]?.state === "dead");
    expect((await jobRows(sql()))[0]?.last_error).toBe('No handler is registered for job kind "teleport".');
  });

  test("outcome logs carry kind, job id, attempt and delay, never the payload", async () => {
    const { logger, lines, text } = capturingLogger();
    let runs = 0;
    const handler = async () => {
      if (++runs === 1) throw new Error("first run fails");
    };
    testbed
      .worker({
        wake: createInProcessChangeSignal(),
        logger,
        backoff: { baseMs: 5, maxMs: 10 },
        handlers: { work: handler },
      })
      .start();
    await enqueue(undefined, "work", { customer_email: "ada@example.com", license_key: "LK-SECRET-123" });
    await until(async () => (await jobRows(sql()))[0]?.state === "done");
    await until(() => lines().some((l) => l.msg === "job done"));
    const [id] = (await jobRows(sql())).map((r) => r.id);
    const retry = lines().find((l) => l.msg === "job failed; retry scheduled");
    const done = lines().find((l) => l.msg === "job done");
    expect(retry).toMatchObject({ level: "warn", kind: "work", job_id: id, attempt: 1, error: "first run fails" });
    expect(typeof retry?.delay_ms).toBe("number");
    expect(done).toMatchObject({ level: "info", kind: "work", job_id: id, attempt: 2 });
    expect(text()).not.toContain("ada@example.com");
    expect(text()).not.toContain("LK-SECRET-123");
  });
});

describe("job worker stop", () => {
  test("waits for running jobs to finish", async () => {
    const started = deferred();
    const worker = testbed.worker({
      wake: createInProcessChangeSignal(),
      handlers: {
        work: async () => {
          started.resolve();
          await Bun.sleep(150);
        },
      },
    });
    worker.start();
    await enqueue();
    await started.promise;
    await worker.stop({ timeoutMs: 2_000 });
    expect((await jobRows(sql())).map((r) => [r.state, r.attempts])).toEqual([["done", 1]]);
  });

  test("with a short timeout, hands the unfinished job back without counting the attempt", async () => {
    const started = deferred();
    const finish = deferred();
    const worker = testbed.worker({
      wake: createInProcessChangeSignal(),
      handlers: {
        work: async () => {
          started.resolve();
          await finish.promise;
        },
      },
    });
    worker.start();
    await enqueue();
    await started.promise;
    const stoppingAt = performance.now();
    await worker.stop({ timeoutMs: 100 });
    expect(performance.now() - stoppingAt).toBeLessThan(1_000);
    const released = (await jobRows(sql()))[0];
    expect(released).toMatchObject({ state: "pending", attempts: 0, locked_by: null });

    // The abandoned handler finishing later changes nothing: the row is no longer its worker's.
    finish.resolve();
    await Bun.sleep(50);
    expect((await jobRows(sql()))[0]).toEqual(released as never);
  });
});

test.skipIf(!hasRealPostgres)("stop() returns by its deadline even while a claim is stuck on a lock", async () => {
  const locker = await testbed.pool(1);
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const locking = locker.begin(async (tx) => {
    await tx`lock table jobs in access exclusive mode`;
    await held;
  });
  await Bun.sleep(50);
  const worker = testbed.worker({ handlers: {}, wake: createInProcessChangeSignal(), pollIntervalMs: 50 });
  worker.start();
  await Bun.sleep(150);
  const started = performance.now();
  await worker.stop({ timeoutMs: 300 });
  expect(performance.now() - started).toBeLessThan(1_000);
  release();
  await locking;
});

describe("job worker and a database outage", () => {
  test("an outcome that cannot be written while the database is away is written once it is back, not after the lease", async () => {
    const target = new URL(db.current.url);
    const proxy = await startTcpProxy({ hostname: target.hostname, port: Number(target.port) });
    try {
      target.port = String(proxy.port);
      const { sql: pool, close } = await openDatabase({ url: target.toString(), dataDir: "", poolMax: 2 });
      const logs = capturingLogger();
      const worker = testbed.worker({
        sql: pool,
        logger: logs.logger,
        leaseMs: 30_000,
        wake: createInProcessChangeSignal(),
        handlers: {
          // The database goes away while the job runs, and comes back 800 ms later.
          work: async () => {
            proxy.cut();
            setTimeout(() => proxy.restore(), 800);
          },
        },
      });
      try {
        await enqueue();
        worker.start();
        await until(async () => (await jobRows(sql()))[0]?.state === "done", 10_000);
        expect((await jobRows(sql())).map((r) => [r.state, r.attempts, r.locked_by])).toEqual([["done", 1, null]]);
        expect(logs.lines().some((line) => line.msg === "job outcome not recorded yet; retrying")).toBeTrue();
      } finally {
        await worker.stop({ timeoutMs: 0 });
        await close(0);
      }
    } finally {
      proxy.stop();
    }
  }, 15_000);
});
