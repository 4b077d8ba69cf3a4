import type { Log } from "../shared/clock-and-log.ts";
import type { UnitOfWork } from "../shared/unit-of-work.ts";
import type { OpsWatchSource } from "./ports.ts";

const BATCH = 100;

/**
 * Alerts operations to dead jobs and to manual tasks past their due time, once each. The alert is
 * queued first and marked after: a crash between the two queues it again under the same key,
 * which the email queue ignores.
 */
export function makeOpsWatch(deps: { readonly source: OpsWatchSource; readonly uow: UnitOfWork; readonly log: Log }) {
  async function sweepDeadJobs(): Promise<number> {
    const jobs = await deps.source.unalertedDeadJobs(BATCH);
    for (const job of jobs) {
      if (job.ops_email) {
        deps.log.error({ job_id: job.id, error: job.last_error }, "an alert to operations could not be emailed");
      } else {
        await deps.uow.run((scope) =>
          scope.alerts.raise({
            kind: "job_dead",
            target_id: job.id,
            occurrence: job.dead_at.toISOString(),
            details: { job_kind: job.kind, attempts: String(job.attempts), last_error: job.last_error ?? "none" },
          }),
        );
      }
      await deps.source.markJobAlerted(job.id);
    }
    return jobs.length;
  }

  /** One sweep at a time: a call during a sweep asks for one more pass after it, and shares its result. */
  let sweeping: Promise<number> | undefined;
  let again = false;

  return {
    alertDeadJobs(): Promise<number> {
      if (sweeping) {
        again = true;
        return sweeping;
      }
      sweeping = (async () => {
        let alerted = 0;
        do {
          again = false;
          alerted += await sweepDeadJobs();
        } while (again);
        return alerted;
      })().finally(() => {
        sweeping = undefined;
      });
      return sweeping;
    },

    async alertOverdueTasks(now: Date): Promise<number> {
      const tasks = await deps.source.unalertedOverdueTasks(now, BATCH);
      for (const task of tasks) {
        await deps.uow.run((scope) =>
          scope.alerts.raise({
            kind: "task_overdue",
            target_id: task.id,
            details: {
              task_kind: task.kind,
              queue_id: task.queue_id,
              due_at: task.due_at.toISOString(),
              instructions: task.instructions,
            },
          }),
        );
        await deps.source.markTaskAlerted(task.id);
      }
      return tasks.length;
    },
  };
}

export type OpsWatch = ReturnType<typeof makeOpsWatch>;
