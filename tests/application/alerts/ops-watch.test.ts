import { describe, expect, test } from "bun:test";
import { makeOpsWatch } from "../../../application/alerts/ops-watch.ts";
import type { DeadJob, OpsWatchSource, OverdueTask } from "../../../application/alerts/ports.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";

const DEAD_AT = new Date("2026-11-23T10:00:00Z");

function source(jobs: DeadJob[], tasks: OverdueTask[]) {
  const alertedJobs = new Set<string>();
  const alertedTasks = new Set<string>();
  const watchSource: OpsWatchSource = {
    unalertedDeadJobs: async (limit) => jobs.filter((job) => !alertedJobs.has(job.id)).slice(0, limit),
    markJobAlerted: async (id) => void alertedJobs.add(id),
    unalertedOverdueTasks: async (now, limit) =>
      tasks.filter((task) => !alertedTasks.has(task.id) && task.due_at < now).slice(0, limit),
    markTaskAlerted: async (id) => void alertedTasks.add(id),
  };
  return watchSource;
}

describe("the operations watch", () => {
  test("a dead job is alerted once, with its kind, attempts and last error; a dead alert email is only logged", async () => {
    const uow = createInMemoryUnitOfWork();
    const log = createRecordingLog();
    const jobs: DeadJob[] = [
      { id: "7", kind: "fulfill", attempts: 8, last_error: "HTTP 500", dead_at: DEAD_AT, ops_email: false },
      { id: "9", kind: "send_email", attempts: 8, last_error: "550", dead_at: DEAD_AT, ops_email: true },
    ];
    const watch = makeOpsWatch({ source: source(jobs, []), uow, log });
    expect(await watch.alertDeadJobs()).toBe(2);
    expect(await watch.alertDeadJobs()).toBe(0);
    expect(uow.alerts.all()).toEqual([
      {
        kind: "job_dead",
        target_id: "7",
        occurrence: DEAD_AT.toISOString(),
        details: { job_kind: "fulfill", attempts: "8", last_error: "HTTP 500" },
      },
    ]);
    expect(log.messages()).toContain("an alert to operations could not be emailed");
  });

  test("a task past its due time is alerted once; one not yet due is not", async () => {
    const uow = createInMemoryUnitOfWork();
    const tasks: OverdueTask[] = [
      {
        id: "t-1",
        kind: "manual_fulfillment",
        queue_id: "onboarding",
        due_at: new Date("2026-11-23T09:00:00Z"),
        instructions: "Call",
      },
      {
        id: "t-2",
        kind: "provisioning",
        queue_id: "ops",
        due_at: new Date("2026-11-23T12:00:00Z"),
        instructions: "Later",
      },
    ];
    const watch = makeOpsWatch({ source: source([], tasks), uow, log: createRecordingLog() });
    const now = new Date("2026-11-23T10:00:00Z");
    expect(await watch.alertOverdueTasks(now)).toBe(1);
    expect(await watch.alertOverdueTasks(now)).toBe(0);
    expect(uow.alerts.all()).toEqual([
      {
        kind: "task_overdue",
        target_id: "t-1",
        details: {
          task_kind: "manual_fulfillment",
          queue_id: "onboarding",
          due_at: "2026-11-23T09:00:00.000Z",
          instructions: "Call",
        },
      },
    ]);
  });

  test("sweeps run one at a time: ten calls during a sweep make one more pass, not ten", async () => {
    const uow = createInMemoryUnitOfWork();
    let passes = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const watch = makeOpsWatch({
      source: {
        ...source([], []),
        async unalertedDeadJobs() {
          passes += 1;
          if (passes === 1) await gate;
          return [];
        },
      },
      uow,
      log: createRecordingLog(),
    });
    const calls = Array.from({ length: 10 }, () => watch.alertDeadJobs());
    release();
    await Promise.all(calls);
    expect(passes).toBe(2);
    await watch.alertDeadJobs();
    expect(passes).toBe(3);
  });
});
