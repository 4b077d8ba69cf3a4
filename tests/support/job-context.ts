import type { JobContext } from "../../application/shared/jobs.ts";

/** The context of a job's first run, for a handler a test calls itself. */
export const firstRun = (overrides: Partial<JobContext> = {}): JobContext => ({
  jobId: "job-1",
  attempt: 1,
  maxAttempts: 8,
  lastAttempt: false,
  ...overrides,
});
