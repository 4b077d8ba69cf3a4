import { emptyFollowUp, type JobContext, type NewJob } from "../../application/shared/jobs.ts";
import type { RecordedJob } from "./fakes/recording-job-scheduler.ts";

/** The context of a job's first run, for a handler a test calls itself. */
export const firstRun = (overrides: Partial<Omit<JobContext, "followUp">> = {}): JobContext => ({
  jobId: "job-1",
  attempt: 1,
  maxAttempts: 8,
  lastAttempt: false,
  ...overrides,
  followUp: emptyFollowUp(),
});

/** Run `attempt` of `maxAttempts`, for a handler a test calls itself. */
export const nthRun = (attempt: number, maxAttempts: number): JobContext =>
  firstRun({ jobId: `job-${attempt}`, attempt, maxAttempts, lastAttempt: attempt >= maxAttempts });

/** A job as the queue stores it, to compare with a plain object. */
export const enqueued = (job: NewJob): RecordedJob => job;
