import { describe, expect, test } from "bun:test";
import type { AuditEntry } from "../../../application/audit/ports.ts";
import { makeRedriveJob } from "../../../application/maintenance/redrive-job.ts";
import type { JobRecord } from "../../../application/shared/jobs.ts";

const ADMIN = "0b9a3c1e-5d4f-4a6b-8c7d-9e0f1a2b3c4d";

const aDeadJob = (): JobRecord => ({
  id: "42",
  kind: "fulfill",
  payload: {},
  state: "dead",
  attempts: 8,
  max_attempts: 8,
  run_at: new Date(),
  last_error: "The provider failed with HTTP 503.",
  created_at: new Date(),
  updated_at: new Date(),
});

/** Job admin over one job: a dead one is redriven and its entry written, anything else is left alone. */
function jobsHolding(job: JobRecord) {
  const entries: AuditEntry[] = [];
  return {
    entries,
    async redrive(jobId: string, audit?: (redriven: JobRecord) => AuditEntry) {
      if (jobId !== job.id) return undefined;
      if (job.state !== "dead") return job;
      const redriven = { ...job, state: "pending" as const, attempts: 0 };
      if (audit) entries.push(audit(redriven));
      return redriven;
    },
  };
}

describe("redriveJob", () => {
  test("a redriven job is one job.redrive entry by the admin, naming its kind and last error", async () => {
    const jobs = jobsHolding(aDeadJob());
    expect(await makeRedriveJob({ jobs })("42", ADMIN)).toMatchObject({ state: "pending", attempts: 0 });
    expect(jobs.entries).toEqual([
      {
        actor_id: ADMIN,
        action: "job.redrive",
        target_type: "job",
        target_id: "42",
        summary: { kind: "fulfill", last_error: "The provider failed with HTTP 503." },
      },
    ]);
  });

  test("a job that is not dead, or none at all, is answered as it stands with no entry", async () => {
    const jobs = jobsHolding({ ...aDeadJob(), state: "done" });
    const redrive = makeRedriveJob({ jobs });
    expect(await redrive("42", ADMIN)).toMatchObject({ state: "done" });
    expect(await redrive("7", ADMIN)).toBeUndefined();
    expect(jobs.entries).toEqual([]);
  });
});
