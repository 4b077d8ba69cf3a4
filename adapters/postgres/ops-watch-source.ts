import type { DeadJob, OpsWatchSource, OverdueTask } from "../../application/alerts/ports.ts";
import { sendEmailJob } from "../../application/mail/jobs.ts";
import type { Queryable } from "./database.ts";

/** Dead jobs and overdue tasks not alerted yet, and their marks once they are. */
export function createPostgresOpsWatchSource(sql: Queryable): OpsWatchSource {
  return {
    async unalertedDeadJobs(limit) {
      const rows = await sql<(Omit<DeadJob, "ops_email"> & { ops: boolean | null })[]>`
        select id::text, kind, attempts, last_error, updated_at as dead_at, (payload->>'ops')::boolean as ops
        from jobs
        where state = 'dead' and updated_at > now() - interval '1 day'
          and (dead_alerted_at is null or dead_alerted_at < updated_at)
        order by jobs.id limit ${limit}`;
      return rows.map(({ ops, ...job }) => ({ ...job, ops_email: job.kind === sendEmailJob.kind && ops === true }));
    },
    async markJobAlerted(id) {
      await sql`update jobs set dead_alerted_at = now() where id = ${id}::bigint`;
    },
    async unalertedOverdueTasks(now, limit) {
      return [
        ...(await sql<OverdueTask[]>`
          select id, kind, queue_id, due_at, instructions from ops_tasks
          where status = 'open' and due_at < ${now} and overdue_alerted_at is null
          order by due_at limit ${limit}`),
      ];
    },
    async markTaskAlerted(id) {
      await sql`update ops_tasks set overdue_alerted_at = now() where id = ${id}`;
    },
  };
}
