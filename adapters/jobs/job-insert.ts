import type postgres from "postgres";
import type { NewJob } from "../../application/shared/jobs.ts";
import type { Queryable } from "../postgres/database.ts";

/**
 * The one statement that adds jobs, written into a larger statement as a CTE: the scheduler's (one
 * job, in the caller's transaction) and the webhook intake's (a batch's jobs, with their inbox
 * rows). `rows` selects `kind, payload, run_at, dedupe_key, max_attempts` (a null `run_at` is now).
 * A job whose dedupe key a pending or running job holds is dropped. Returns each inserted job's
 * `id` and `kind`.
 */
export const insertJobs = (sql: Queryable, rows: postgres.Fragment) => sql`
  insert into jobs (kind, payload, run_at, dedupe_key, max_attempts)
  select kind, payload, coalesce(run_at, now()), dedupe_key, max_attempts from (${rows}) as job
  on conflict (dedupe_key) where state in ('pending', 'running') do nothing
  returning id, kind`;

/** One job as the row `insertJobs` reads. */
export const jobRow = (sql: Queryable, job: NewJob) => sql`
  select ${job.kind}::text as kind, ${sql.json(job.payload as postgres.JSONValue)}::jsonb as payload,
    ${job.runAt ?? null}::timestamptz as run_at, ${job.dedupeKey}::text as dedupe_key,
    ${job.maxAttempts ?? null}::int as max_attempts`;
