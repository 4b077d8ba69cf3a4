import type { AuditEntry } from "../audit/ports.ts";
import { PermanentJobFailure } from "./errors.ts";

/** A job's payload as the queue stores it: a JSON object. */
export type StoredPayload = Readonly<Record<string, unknown>>;

declare const madeByItsType: unique symbol;

/**
 * A job to enqueue. Only a job type makes one (`fulfillJob({ fulfillment_id })`), so every enqueue
 * leads to its kind's definition, and from there to its handler.
 */
export interface NewJob<Kind extends string = string> {
  /** Which handler runs it, e.g. `payment_event`, `fulfill`: stored in `jobs.kind`. */
  readonly kind: Kind;
  readonly payload: StoredPayload;
  /** At most one job per key that is not yet done or dead: a second enqueue is ignored. */
  readonly dedupeKey: string;
  /** Not before this time (default now). */
  readonly runAt?: Date;
  /** Overrides `JOB_MAX_ATTEMPTS` for this job. */
  readonly maxAttempts?: number;
  readonly [madeByItsType]: true;
}

export interface EnqueueOptions {
  readonly runAt?: Date;
  readonly maxAttempts?: number;
}

/**
 * One kind of job, defined once by the feature that owns it (its `jobs.ts`): the kind stored in
 * `jobs.kind`, the payload, the dedupe key, and how a stored payload is read back. Called, it
 * makes the job to enqueue.
 */
export interface JobType<Kind extends string = string, Payload extends StoredPayload = StoredPayload> {
  (payload: Payload, options?: EnqueueOptions): NewJob<Kind>;
  readonly kind: Kind;
  /** The key a second enqueue of the same work is dropped by while the first is pending or running. */
  readonly dedupeKey: (payload: Payload) => string;
  /** A stored payload read back; a malformed one throws PermanentJobFailure, so the job is dead at once. */
  readonly read: (stored: StoredPayload) => Payload;
}

/** What a job type's handler is given: its payload as its `read` returned it. */
export type PayloadOf<Type> = Type extends JobType<string, infer Payload> ? Payload : never;

/**
 * A stored payload's fields, each checked: a field of the wrong type throws PermanentJobFailure, and
 * so does a missing one, unless it has a `fallback` (for jobs stored before the field existed).
 */
export interface StoredFields {
  /** The payload whole, unchecked. */
  readonly payload: StoredPayload;
  string(name: string, fallback?: string): string;
  number(name: string, fallback?: number): number;
  boolean(name: string, fallback?: boolean): boolean;
  oneOf<Value extends string>(name: string, values: readonly Value[]): Value;
}

function storedFields(kind: string, payload: StoredPayload): StoredFields {
  function field<T>(name: string, is: (value: unknown) => value is T, fallback: T | undefined): T {
    const value = payload[name];
    if (is(value)) return value;
    if (value === undefined && fallback !== undefined) return fallback;
    throw new PermanentJobFailure(`The ${kind} job's payload has no valid ${name}.`);
  }
  return {
    payload,
    string: (name, fallback) => field(name, (value) => typeof value === "string", fallback),
    number: (name, fallback) => field(name, (value) => typeof value === "number", fallback),
    boolean: (name, fallback) => field(name, (value) => typeof value === "boolean", fallback),
    oneOf: <Value extends string>(name: string, values: readonly Value[]) =>
      field(name, (value): value is Value => values.includes(value as Value), undefined),
  };
}

/**
 * Defines a kind of job. `read` comes before `dedupeKey`, so the payload's type is the one `read`
 * returns. `maxAttempts` is the kind's own limit, when it has one.
 */
export function defineJob<const Kind extends string, Payload extends StoredPayload>(definition: {
  readonly kind: Kind;
  readonly read: (fields: StoredFields) => Payload;
  readonly dedupeKey: (payload: Payload) => string;
  readonly maxAttempts?: number;
}): JobType<Kind, Payload> {
  const { kind, dedupeKey } = definition;
  const make = (payload: Payload, options: EnqueueOptions = {}) => {
    const maxAttempts = options.maxAttempts ?? definition.maxAttempts;
    return {
      kind,
      payload,
      dedupeKey: dedupeKey(payload),
      ...(options.runAt === undefined ? {} : { runAt: options.runAt }),
      ...(maxAttempts === undefined ? {} : { maxAttempts }),
    } as NewJob<Kind>;
  };
  const read = (stored: StoredPayload) => definition.read(storedFields(kind, stored));
  return Object.assign(make, { kind, dedupeKey, read });
}

/**
 * Enqueues inside the caller's transaction: a job commits (and the workers hear of it) together with
 * the state change that caused it, or not at all.
 */
export interface JobScheduler {
  enqueue(job: NewJob): Promise<void>;
  /**
   * Enqueues `job` as the follow-up of the job whose handler opened this transaction
   * (`UnitOfWork.run(work, job)`): the next step of the same piece of work, such as the delivery of
   * an order just paid. It is inserted as `enqueue` inserts it, but wakes no worker: the worker
   * running the causing job claims it in the statement that records that job's outcome, and runs it
   * next in the same slot. That saves the wake-up's claim by every worker for each step
   * (docs/decisions/jobs-queue.md has the figure).
   *
   * Until that claim it is an ordinary pending job: after a rollback there is nothing to claim, if
   * another worker's poll takes it first the claim finds nothing, and if the worker stops first any
   * worker's poll runs it. One follow-up per run: a second one, one due later, or one outside a
   * job's transaction is enqueued as `enqueue` does.
   */
  enqueueFollowUp(job: NewJob): Promise<void>;
}

/**
 * A run's follow-up (`JobScheduler.enqueueFollowUp`), written by the scheduler and read by the
 * worker when the handler has returned.
 */
export interface FollowUp {
  /** Set by the first `enqueueFollowUp` before its insert (one per run), and by the worker once the handler returned. */
  taken: boolean;
  /** The follow-up's id once inserted; none when a pending job already held its dedupe key. */
  jobId: string | undefined;
}

export const emptyFollowUp = (): FollowUp => ({ taken: false, jobId: undefined });

export interface JobContext {
  readonly jobId: string;
  /** 1 for the first run. */
  readonly attempt: number;
  readonly maxAttempts: number;
  /** True when a failure now dead-letters the job instead of retrying it. */
  readonly lastAttempt: boolean;
  /** What this run hands to its worker to run next: pass the context to `UnitOfWork.run`. */
  readonly followUp: FollowUp;
}

/**
 * Runs one job of `Type`, given its payload as read back. Returning completes it. Throwing retries
 * it with exponential backoff and full jitter (an error's `retryAfterMs`, e.g. a 429's
 * `Retry-After`, is a floor), until the attempts run out; an error with `transient === false` (such
 * as `PermanentJobFailure`) dead-letters at once. Handlers must be idempotent: a job whose worker
 * died mid-run is run again after its lease expires.
 */
export type JobHandler<Type extends AnyJobType = JobType> = (
  payload: PayloadOf<Type>,
  context: JobContext,
) => Promise<void>;

// biome-ignore lint/suspicious/noExplicitAny: any payload, so that every job type fits (payloads appear both in and out).
export type AnyJobType = JobType<string, any>;

/** Job types by their kind. */
export type JobTypes = { readonly [kind: string]: AnyJobType };

/** One handler per kind of `Types`: a kind left without one does not compile. */
export type JobHandlers<Types extends JobTypes> = { readonly [Kind in keyof Types]: JobHandler<Types[Kind]> };

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
