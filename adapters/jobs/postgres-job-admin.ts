import type { JobAdmin, JobRecord } from "../../application/shared/jobs.ts";
import { ValidationFailed } from "../../domain/shared/errors.ts";
import { createPostgresAuditLogWriter } from "../postgres/audit-log-writer.ts";
import { decodeCursor, encodeCursor } from "../postgres/cursor.ts";
import type { Queryable, Sql } from "../postgres/database.ts";
import { type JobWakeUp, wakeJobWorkers } from "./job-wake-up.ts";

const MAX_PAGE = 100;
const JOB_ID = /^[1-9]\d{0,17}$/;
const UNIQUE_VIOLATION = "23505";

/**
 * Dead-letter inspection and pg-boss style redrive. `maxAttempts` is JOB_MAX_ATTEMPTS, shown for
 * jobs enqueued without their own limit, exactly as the worker resolves it.
 */
export function createPostgresJobAdmin(deps: { sql: Sql; wake: JobWakeUp; maxAttempts?: number }): JobAdmin {
  const { sql } = deps;
  const columns = (q: Queryable = sql) => q`
    id::text as id, kind, payload, state, attempts, coalesce(max_attempts, ${deps.maxAttempts ?? 8}::int) as max_attempts,
    run_at, last_error, created_at, updated_at`;
  const find = async (id: string) =>
    (await sql<JobRecord[]>`select ${columns()} from jobs where id = ${id}::bigint`)[0];

  return {
    /** Newest first; the cursor is the last id seen. */
    async list(filter, page) {
      const limit = Math.min(Math.max(Math.trunc(page.limit), 1), MAX_PAGE);
      const before = page.cursor ? jobIdFromCursor(page.cursor) : undefined;
      const rows = await sql<JobRecord[]>`
        select ${columns()} from jobs
        where true
          ${filter.state ? sql`and state = ${filter.state}` : sql``}
          ${filter.kind ? sql`and kind = ${filter.kind}` : sql``}
          ${before ? sql`and id < ${before}::bigint` : sql``}
        order by jobs.id desc
        limit ${limit + 1}`;
      const items = rows.slice(0, limit);
      const last = items.at(-1);
      return { items, next_cursor: rows.length > limit && last ? encodeCursor([last.id]) : null };
    },

    /**
     * Returns the job as it now stands (undefined when there is none): `pending` when it was
     * redriven, unchanged when it was not dead or a live job holds its dedupe key.
     */
    async redrive(jobId, audit) {
      if (!JOB_ID.test(jobId)) return undefined;
      try {
        const redriven = await sql.begin(async (tx) => {
          const [job] = await tx<JobRecord[]>`
            update jobs set state = 'pending', attempts = 0, run_at = now(), updated_at = now()
            where id = ${jobId}::bigint and state = 'dead'
            returning ${columns(tx)}`;
          if (job && audit) await createPostgresAuditLogWriter(tx).record(audit(job));
          return job;
        });
        if (redriven) {
          await wakeJobWorkers(sql, deps.wake, redriven.kind);
          return redriven;
        }
      } catch (error) {
        if ((error as { code?: unknown }).code !== UNIQUE_VIOLATION) throw error;
      }
      return find(jobId);
    },
  };
}

function jobIdFromCursor(cursor: string): string {
  const [id] = decodeCursor(cursor, 1);
  if (typeof id === "string" && JOB_ID.test(id)) return id;
  throw new ValidationFailed([{ path: "/cursor", code: "INVALID_CURSOR", message: "is not a cursor this API issued" }]);
}
