import type { JobContext, NewJob } from "../../application/shared/jobs.ts";
import type { RecordedJob } from "./fakes/recording-job-scheduler.ts";

/** The context of a job's first run, for a handler a test calls itself. */
export const firstRun = (overrides: Partial<JobContext> = {}): JobContext => ({
  jobId: "job-1",
  attempt: 1,
  maxAttempts: 8,
  lastAttempt: false,
  ...overrides,
});

/** A job as the queue stores it, to compare with a plain object. */
export const enqueued = (job: NewJob): RecordedJob => job;
