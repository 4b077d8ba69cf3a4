import type { JobScheduler, NewJob } from "../../../application/shared/jobs.ts";

/** A job as enqueued, to compare with what a test expects (kind, payload, dedupe key and options). */
export type RecordedJob = Pick<NewJob, "kind" | "payload" | "dedupeKey" | "runAt" | "maxAttempts">;

/**
 * Jobs enqueued in memory, deduplicated like the real queue: a second job with the same
 * `dedupeKey` is ignored (the fake never runs jobs, so every enqueued one stays pending).
 */
export function createRecordingJobScheduler() {
  let jobs: RecordedJob[] = [];
  const scheduler: JobScheduler = {
    async enqueue(job) {
      if (jobs.some((queued) => queued.dedupeKey === job.dedupeKey)) return;
      jobs.push(job);
    },
  };
  return {
    ...scheduler,
    /** Every job kept, in order. */
    all: () => [...jobs],
    ofKind: (kind: string) => jobs.filter((job) => job.kind === kind),
    snapshot() {
      const saved = [...jobs];
      return () => {
        jobs = saved;
      };
    },
  };
}

export type RecordingJobScheduler = ReturnType<typeof createRecordingJobScheduler>;
