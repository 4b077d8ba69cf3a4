import type { JobScheduler, NewJob } from "../../application/shared/jobs.ts";
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
 */
export function createPostgresJobScheduler(deps: { sql: Queryable; wake: JobWakeUp }): JobScheduler {
  const { sql, wake } = deps;
  return {
    async enqueue(job: NewJob) {
      // Server mode wakes the workers from the insert's own statement: no round trip of its own.
      const channel = wake === "notify" ? JOB_NOTIFY_CHANNEL : null;
      const inserted = await sql`
        with inserted as (${insertJobs(sql, jobRow(sql, job))})
        select id, case when ${channel}::text is not null then pg_notify(${channel}::text, kind) end
        from inserted`;
      if (inserted.length > 0 && wake !== "notify") await wake.publish(JOB_WAKE_TOPIC);
    },
  };
}
