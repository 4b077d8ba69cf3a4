import type { AuditEntry } from "../audit/ports.ts";

export interface NewJob {
  /** Which handler runs it, e.g. `payment_event`, `fulfill`. */
  readonly kind: string;
  readonly payload: Readonly<Record<string, unknown>>;
  /** Not before this time (default now). */
  readonly runAt?: Date;
  /** At most one job per key that is not yet done or dead: a second enqueue is ignored. */
  readonly dedupeKey?: string;
  /** Overrides `JOB_MAX_ATTEMPTS` for this job. */
  readonly maxAttempts?: number;
}

/**
 * Enqueues inside the caller's transaction: a job commits (and the workers hear of it) together with
 * the state change that caused it, or not at all. A job enqueued by a running job may be run next by
 * that job's worker instead of waking the others.
 */
export interface JobScheduler {
  enqueue(job: NewJob): Promise<void>;
}

export interface JobContext {
  readonly jobId: string;
  /** 1 for the first run. */
  readonly attempt: number;
  readonly maxAttempts: number;
  /** True when a failure now dead-letters the job instead of retrying it. */
  readonly lastAttempt: boolean;
}

/**
 * Runs one job. Returning completes it. Throwing retries it with exponential backoff and full
 * jitter (an error's `retryAfterMs`, e.g. a 429's `Retry-After`, is a floor), until the attempts run
 * out; an error with `transient === false` (such as `PermanentJobFailure`) dead-letters at once.
 * Handlers must be idempotent: a job whose worker died mid-run is run again after its lease expires.
 */
export type JobHandler = (payload: Readonly<Record<string, unknown>>, context: JobContext) => Promise<void>;

export type JobState = "pending" | "running" | "done" | "dead";

export interface JobRecord {
  readonly id: string;
  readonly kind: string;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly state: JobState;
  readonly attempts: number;
  readonly max_attempts: number;
  readonly run_at: Date;
  readonly last_error: string | null;
  readonly created_at: Date;
  readonly updated_at: Date;
}

export interface JobAdmin {
  list(
    filter: { state?: JobState; kind?: string },
    page: { limit: number; cursor?: string },
  ): Promise<{ items: JobRecord[]; next_cursor: string | null }>;
  /**
   * A dead job runs again from attempt 1 (pg-boss's redrive); anything else is left alone. `audit`
   * names the entry of a redrive, written in its transaction; a job left alone writes none.
   */
  redrive(jobId: string, audit?: (redriven: JobRecord) => AuditEntry): Promise<JobRecord | undefined>;
}
