import type { Queryable } from "../postgres/database.ts";
import type { JobOutcome } from "./job-retry.ts";

export interface ClaimedJob {
  readonly id: string;
  readonly kind: string;
  readonly payload: Readonly<Record<string, unknown>>;
  /** This run's number: 1 for the first. */
  readonly attempts: number;
  readonly max_attempts: number;
}

/**
 * The queue's statements for one worker. Every write after the claim is conditional on the lease
 * still being this worker's, so a worker whose lease was taken over can never overwrite the row.
 */
export function createPostgresJobLeases(deps: {
  sql: Queryable;
  workerId: string;
  leaseMs: number;
  defaultMaxAttempts: number;
}) {
  const { sql, workerId } = deps;
  const leaseEnd = () => sql`now() + ${deps.leaseMs}::float8 * interval '1 millisecond'`;
  const mine = () => sql`locked_by = ${workerId} and state = 'running'`;
  /**
   * Joined into a statement, commits its implicit transaction without waiting for the WAL flush
   * (`synchronous_commit` is per transaction, read when it commits). Only for the queue's own
   * bookkeeping, which a PostgreSQL crash may roll back without loss: a claim lost is claimable
   * again, and a job whose `done` is lost runs once more, as after any crash mid-run (handlers are
   * idempotent). What a job does is committed by its handler, synchronously.
   */
  const asyncCommit = () => sql`(select set_config('synchronous_commit', 'off', true)) as async_commit`;

  /** A claim: the job runs here, as its next attempt, under a fresh lease. */
  const takeLease = () => sql`
    state = 'running', attempts = jobs.attempts + 1, locked_by = ${workerId}, locked_until = ${leaseEnd()},
    updated_at = now()`;
  const claimedJob = () => sql`
    jobs.id::text as id, jobs.kind, jobs.payload, jobs.attempts,
    coalesce(jobs.max_attempts, ${deps.defaultMaxAttempts}::int) as max_attempts`;
  /** Back to pending, unrun: the interrupted run does not count as an attempt. */
  const handBack = (jobId?: string) => sql`
    update jobs set state = 'pending', attempts = attempts - 1, run_at = now(),
      locked_by = null, locked_until = null, updated_at = now()
    where ${mine()} ${jobId === undefined ? sql`` : sql`and id = ${jobId}::bigint`}
    returning id`;

  return {
    /**
     * graphile-worker's claim, in two parts on an index each: running jobs whose lease expired
     * (their worker died, or this one could not record their outcome) first, then due pending jobs
     * oldest first, skipping rows another worker is claiming and the jobs still running here
     * (`runningHere`, ids). Each part is materialized so its locking subquery runs once. Each state
     * has its own partial index: one index over both keeps the dead versions of every job finished
     * since the last vacuum, and the claim would step over them all (docs/decisions/jobs-queue.md).
     */
    claim(limit: number, runningHere: readonly string[] = []): Promise<ClaimedJob[]> {
      return sql<ClaimedJob[]>`
        with expired as materialized (
          select id from jobs
          where state = 'running' and locked_until < now() and not (id = any(${runningHere as string[]}::bigint[]))
          order by locked_until
          limit ${limit}
          for update skip locked
        ), due as materialized (
          select id from jobs
          where state = 'pending' and run_at <= now()
          order by run_at, id
          limit ${limit}
          for update skip locked
        ), claimed as (
          select id from expired union all select id from due limit ${limit}
        )
        update jobs set ${takeLease()}
        from claimed, ${asyncCommit()} where jobs.id = claimed.id
        returning ${claimedJob()}`;
    },

    /** Extends the lease of a job still running here; false once it is no longer ours. */
    async extend(jobId: string): Promise<boolean> {
      const rows = await sql`
        update jobs set locked_until = ${leaseEnd()} where id = ${jobId}::bigint and ${mine()} returning id`;
      return rows.length > 0;
    },

    /**
     * Records a run's outcome; `recorded` is false when the lease was lost and nothing was written.
     * In the same statement, claims the run's follow-up (`followUp`, an id) if it is still pending:
     * `follow_up` is that job, claimed for this worker, or null when there is none (its insert rolled
     * back, or another worker's poll took it first).
     */
    async finish(jobId: string, outcome: JobOutcome, followUp?: string): Promise<FinishedRun> {
      const runAt =
        outcome.state === "pending" ? sql`now() + ${outcome.delayMs}::float8 * interval '1 millisecond'` : sql`run_at`;
      const lastError = outcome.state === "done" ? sql`last_error` : sql`${outcome.error}`;
      // A dead job is committed durably before anyone is alerted to it.
      const commit = outcome.state === "dead" ? sql`` : sql`from ${asyncCommit()}`;
      const [row] = await sql<FinishedRun[]>`
        with finished as (
          update jobs set state = ${outcome.state}, run_at = ${runAt}, last_error = ${lastError},
            locked_by = null, locked_until = null, updated_at = now()
          ${commit}
          where id = ${jobId}::bigint and ${mine()}
          returning id
        ), follow_up as (
          update jobs set ${takeLease()}
          where id = ${followUp ?? null}::bigint and state = 'pending'
          returning ${claimedJob()}
        )
        select exists (select 1 from finished) as recorded, (select row_to_json(follow_up) from follow_up) as follow_up`;
      return row ?? { recorded: false, follow_up: null };
    },

    /** Hands unfinished jobs back on shutdown; the interrupted run does not count as an attempt. */
    async releaseAll(): Promise<number> {
      return (await handBack()).length;
    },

    /** Hands one job back unrun: a follow-up claimed while this worker stops. */
    async release(jobId: string): Promise<void> {
      await handBack(jobId);
    },
  };
}

export interface FinishedRun {
  readonly recorded: boolean;
  /** The run's follow-up, claimed for this worker to run next. */
  readonly follow_up: ClaimedJob | null;
}

export type PostgresJobLeases = ReturnType<typeof createPostgresJobLeases>;
