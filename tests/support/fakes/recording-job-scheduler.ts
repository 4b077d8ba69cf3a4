import type { JobScheduler, NewJob } from "../../../application/shared/jobs.ts";

/** A job as enqueued, to compare with what a test expects (kind, payload, dedupe key and options). */
export type RecordedJob = Pick<NewJob, "kind" | "payload" | "dedupeKey" | "runAt" | "maxAttempts">;

/**
 * Jobs enqueued in memory, deduplicated like the real queue: a second job with the same
 * `dedupeKey` is ignored (the fake never runs jobs, so every enqueued one stays pending). A
 * follow-up is kept like any job, and its dedupe key noted in `followUps`.
 */
export function createRecordingJobScheduler() {
  let jobs: RecordedJob[] = [];
  let followUps: string[] = [];
  const scheduler: JobScheduler = {
    async enqueue(job) {
      if (jobs.some((queued) => queued.dedupeKey === job.dedupeKey)) return;
      jobs.push(job);
    },
    async enqueueFollowUp(job) {
      if (jobs.some((queued) => queued.dedupeKey === job.dedupeKey)) return;
      jobs.push(job);
      followUps.push(job.dedupeKey);
    },
  };
  return {
    ...scheduler,
    /** Every job kept, in order. */
    all: () => [...jobs],
    /** The dedupe keys of the jobs enqueued as follow-ups, in order. */
    followUps: () => [...followUps],
    ofKind: (kind: string) => jobs.filter((job) => job.kind === kind),
    snapshot() {
      const saved = [...jobs];
      const savedFollowUps = [...followUps];
      return () => {
        jobs = saved;
        followUps = savedFollowUps;
      };
    },
  };
}

export type RecordingJobScheduler = ReturnType<typeof createRecordingJobScheduler>;
