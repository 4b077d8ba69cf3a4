import type { JobAdmin, JobRecord } from "../shared/jobs.ts";

/**
 * An admin runs a dead job again from its first attempt; the audit log names who, in the
 * redrive's transaction. A job that is not dead is left alone and answered as it stands.
 */
export function makeRedriveJob(deps: { readonly jobs: Pick<JobAdmin, "redrive"> }) {
  return function redriveJob(jobId: string, actorId: string): Promise<JobRecord | undefined> {
    return deps.jobs.redrive(jobId, (job) => ({
      actor_id: actorId,
      action: "job.redrive",
      target_type: "job",
      target_id: job.id,
      summary: { kind: job.kind, last_error: job.last_error },
    }));
  };
}
