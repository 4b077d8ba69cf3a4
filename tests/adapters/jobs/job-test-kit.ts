import { afterEach, beforeEach } from "bun:test";
import { createJobWorker, type JobWorker, type JobWorkerDeps } from "../../../adapters/jobs/job-worker.ts";
import { openDatabase, type Sql } from "../../../adapters/postgres/database.ts";
import {
  defineJob,
  type JobHandler,
  type JobState,
  type JobTypes,
  type StoredPayload,
} from "../../../application/shared/jobs.ts";
import { createLogger } from "../../../kit/logger.ts";
import type { TestDatabase } from "../../support/database.ts";

export interface JobRow {
  id: string;
  kind: string;
  state: JobState;
  attempts: number;
  last_error: string | null;
  locked_by: string | null;
}

/**
 * A kind of job for the queue's own tests: its handler gets the payload as stored, and its dedupe
 * key is the payload's `key` when it has one (else every enqueue adds a job).
 */
export function testJob(kind: string) {
  return defineJob({
    kind,
    read: (fields): StoredPayload => fields.payload,
    dedupeKey: (payload) => (typeof payload.key === "string" ? payload.key : crypto.randomUUID()),
  });
}

export async function jobRows(sql: Sql, kind?: string): Promise<JobRow[]> {
  return sql<JobRow[]>`
    select id::text as id, kind, state, attempts, last_error, locked_by from jobs
    ${kind ? sql`where kind = ${kind}` : sql``} order by jobs.id`;
}

export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 3_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await Bun.sleep(5);
  }
}

export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A logger whose JSON lines the test can read. */
export function capturingLogger() {
  const raw: string[] = [];
  const logger = createLogger({
    level: "debug",
    destination: {
      write: (line: string) => {
        raw.push(line);
      },
    },
  });
  return {
    logger,
    lines: () => raw.map((line) => JSON.parse(line) as Record<string, unknown>),
    text: () => raw.join(""),
  };
}

export const silentLogger = () => createLogger({ level: "silent" });

/** Waits until some connection on the database LISTENs to the jobs channel (the worker can hear NOTIFY). */
export async function untilListening(sql: Sql): Promise<void> {
  await until(async () => {
    const [row] = await sql<{ n: number }[]>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and state = 'idle' and query ilike 'listen%mkt_jobs%'`;
    return (row?.n ?? 0) > 0;
  });
}

/**
 * Empties the queue before each test, and stops every worker and closes every extra pool a test
 * opened after it, so no worker outlives its test and claims the next test's jobs.
 */
export function useJobTestbed(db: { readonly current: TestDatabase }) {
  const workers: JobWorker[] = [];
  const pools: Sql[] = [];
  beforeEach(async () => {
    await db.current.sql`delete from jobs`;
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop({ timeoutMs: 0 })));
    await Promise.all(pools.splice(0).map((p) => p.end({ timeout: 0 })));
  });
  return {
    /** A worker for the kinds its `handlers` name, each a `testJob` unless `types` gives its own. */
    worker(
      deps: Partial<Omit<JobWorkerDeps<never>, "types" | "handlers">> & {
        readonly wake: JobWorkerDeps<never>["wake"];
        readonly types?: JobTypes;
        readonly handlers: Readonly<Record<string, JobHandler>>;
      },
    ): JobWorker {
      const types = {
        ...Object.fromEntries(Object.keys(deps.handlers).map((kind) => [kind, testJob(kind)])),
        ...deps.types,
      };
      const worker = createJobWorker({
        sql: db.current.sql,
        logger: silentLogger(),
        pollIntervalMs: 20,
        ...deps,
        types,
        handlers: deps.handlers,
      });
      workers.push(worker);
      return worker;
    },
    /** Another instance's connection pool on the same database. */
    async pool(max = 4): Promise<Sql> {
      const { sql } = await openDatabase({ url: db.current.url, dataDir: "", poolMax: max });
      pools.push(sql);
      return sql;
    },
  };
}
