import type { FollowUp, JobScheduler, NewJob } from "../../application/shared/jobs.ts";
import type { Queryable } from "../postgres/database.ts";
import { insertJobs, jobRow } from "./job-insert.ts";
import { JOB_NOTIFY_CHANNEL, JOB_WAKE_TOPIC, type JobWakeUp } from "./job-wake-up.ts";

/**
 * Enqueues through whatever `sql` it is given: pass the transaction (`sql.begin(tx => ...)`) whose
 * state change causes the job, and the job commits or rolls back with it.
 *
 * Wake-up, server mode (`wake: "notify"`): `pg_notify` runs in that same transaction, so every
 * instance's LISTEN hears it only after commit, and never after a rollback. PostgreSQL folds
 * identical notifications within a transaction, so a batch of enqueues sends one per kind.
 *
 * Wake-up, embedded mode (`wake: signal`): PGlite relays no NOTIFY, so the in-process signal is
 * published right after the insert, before commit. That is safe because the embedded pool has one
 * connection: the transaction holds it, so the worker's claim query queues behind the commit and
 * then sees the job. After a rollback the wake-up costs one empty poll.
 *
 * A second enqueue with the `dedupeKey` of a pending or running job is dropped, with no wake-up.
 *
 * A follow-up (`enqueueFollowUp`) is inserted without a wake-up, and its id noted in `followUp` for
 * the worker running the job that caused it (job-worker.ts).
 */
export function createPostgresJobScheduler(deps: {
  sql: Queryable;
  wake: JobWakeUp;
  /** The follow-up of the job whose handler opened the transaction, if one did. */
  followUp?: FollowUp;
}): JobScheduler {
  const { sql, wake, followUp } = deps;

  /** Inserts the job; returns its id, or none when a pending or running job holds its dedupe key. */
  async function insert(job: NewJob, wakeWorkers: boolean): Promise<string | undefined> {
    // Server mode wakes the workers from the insert's own statement: no round trip of its own.
    const channel = wakeWorkers && wake === "notify" ? JOB_NOTIFY_CHANNEL : null;
    const [inserted] = await sql<{ id: string }[]>`
      with inserted as (${insertJobs(sql, jobRow(sql, job))})
      select id::text as id, case when ${channel}::text is not null then pg_notify(${channel}::text, kind) end
      from inserted`;
    if (inserted && wakeWorkers && wake !== "notify") await wake.publish(JOB_WAKE_TOPIC);
    return inserted?.id;
  }

  return {
    async enqueue(job) {
      await insert(job, true);
    },

    async enqueueFollowUp(job) {
      const dueNow = job.runAt === undefined || job.runAt.getTime() <= Date.now();
      if (followUp && !followUp.taken && dueNow) {
        followUp.taken = true;
        followUp.jobId = await insert(job, false);
      } else {
        await insert(job, true);
      }
    },
  };
}
