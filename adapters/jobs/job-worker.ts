import { hostname } from "node:os";
import { emptyFollowUp, type JobHandlers, type JobTypes } from "../../application/shared/jobs.ts";
import type { ChangeSignal } from "../../application/shared/ports.ts";
import type { Logger } from "../../kit/logger.ts";
import { isDatabaseUnavailable, type Sql } from "../postgres/database.ts";
import { handlesByKind } from "./job-handler-table.ts";
import { type Backoff, errorCode, failureOutcome, type JobOutcome } from "./job-retry.ts";
import { JOB_WAKE_TOPIC } from "./job-wake-up.ts";
import { type ClaimedJob, createPostgresJobLeases, type FinishedRun } from "./postgres-job-leases.ts";

export interface JobWorkerDeps<Types extends JobTypes> {
  readonly sql: Sql;
  /** The kinds of job it runs, by kind: each reads its stored payload back. */
  readonly types: Types;
  /** A handler per kind of `types`: a kind without one does not compile. */
  readonly handlers: JobHandlers<Types>;
  /** The Postgres change signal on a real server, the in-process one when embedded. */
  readonly wake: Pick<ChangeSignal, "subscribe">;
  readonly logger: Logger;
  /** Jobs run at once by this worker (default 4). */
  readonly concurrency?: number;
  /** How long a claim holds without a heartbeat (default 30 s); renewed every third of it. */
  readonly leaseMs?: number;
  /** JOB_MAX_ATTEMPTS, for jobs enqueued without their own (default 8). */
  readonly maxAttempts?: number;
  readonly backoff?: Backoff;
  /** The fallback poll, for delayed jobs, expired leases and lost wake-ups (default 1 s). */
  readonly pollIntervalMs?: number;
  readonly random?: () => number;
  /** Told after a job is dead-lettered (operations alerts); its failure is logged, never the job's. */
  readonly onDeadLettered?: () => Promise<unknown>;
  /** Unique per process; written to `locked_by`. */
  readonly workerId?: string;
}

export interface JobWorker {
  readonly workerId: string;
  start(): void;
  /** Stops claiming, waits for running jobs up to `timeoutMs`, then hands the rest back. */
  stop(options?: { timeoutMs?: number }): Promise<void>;
}

interface Run {
  readonly jobId: string;
  readonly heartbeat: ReturnType<typeof setInterval>;
  readonly done: Promise<void>;
}

export function createJobWorker<Types extends JobTypes>(deps: JobWorkerDeps<Types>): JobWorker {
  const handles = handlesByKind(deps.types, deps.handlers);
  const concurrency = deps.concurrency ?? 4;
  const leaseMs = deps.leaseMs ?? 30_000;
  const backoff = deps.backoff ?? { baseMs: 1_000, maxMs: 300_000 };
  const random = deps.random ?? Math.random;
  const workerId = deps.workerId ?? `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
  const leases = createPostgresJobLeases({
    sql: deps.sql,
    workerId,
    leaseMs,
    defaultMaxAttempts: deps.maxAttempts ?? 8,
  });
  const log = deps.logger.child({ worker_id: workerId });
  const runs = new Set<Run>();
  let phase: "idle" | "started" | "stopping" | "stopped" = "idle";
  let polling: Promise<void> | undefined;
  // Set when a poll was wanted but could not run (one in flight, or no free slot), or when a claim
  // filled every slot and more jobs may be due: the next chance to poll takes it.
  let pollWanted = false;
  let pollTimer: ReturnType<typeof setInterval> | undefined;
  let unsubscribe: (() => void) | undefined;

  function poll() {
    if (phase !== "started") return;
    if (polling || runs.size >= concurrency) {
      pollWanted = true;
      return;
    }
    pollWanted = false;
    polling = claimAndRun()
      .catch((error: unknown) => log.error({ error_code: errorCode(error), error: String(error) }, "job claim failed"))
      .finally(() => {
        polling = undefined;
        if (pollWanted) poll();
      });
  }

  async function claimAndRun() {
    const free = concurrency - runs.size;
    const claimed = await leases.claim(
      free,
      [...runs].map((run) => run.jobId),
    );
    if (claimed.length === free) pollWanted = true;
    for (const job of claimed) runJob(job);
  }

  /**
   * Runs a job in a slot of its own; its follow-up, claimed when its outcome was recorded, runs next
   * in the same slot, or goes back to the queue if the worker is stopping.
   */
  function runJob(job: ClaimedJob) {
    const heartbeat = setInterval(() => void keepLease(job, heartbeat), Math.max(10, Math.floor(leaseMs / 3)));
    const current: Run = {
      jobId: job.id,
      heartbeat,
      done: execute(job)
        .then(async (next) => {
          if (next === undefined) return;
          if (phase === "started") runJob(next);
          else await leases.release(next.id);
        })
        .catch((error: unknown) => log.error({ job_id: job.id, error: String(error) }, "running a follow-up failed"))
        .finally(() => {
          clearInterval(heartbeat);
          runs.delete(current);
          if (pollWanted) poll();
        }),
    };
    runs.add(current);
  }

  async function keepLease(job: ClaimedJob, heartbeat: Run["heartbeat"]) {
    try {
      if (await leases.extend(job.id)) return;
      clearInterval(heartbeat);
      log.warn({ job_id: job.id, kind: job.kind, attempt: job.attempts }, "job lease lost while running");
    } catch (error) {
      log.warn({ job_id: job.id, kind: job.kind, error: String(error) }, "job heartbeat failed");
    }
  }

  /**
   * Records the outcome, retrying while the database is unreachable (the heartbeat keeps the lease
   * once it is back), so a restart does not leave the job waiting for its lease to expire. Gives up
   * after one lease's time, or when the worker is stopping; the job then reruns after its lease.
   */
  async function finishWhileLeased(job: ClaimedJob, outcome: JobOutcome, followUp?: string): Promise<FinishedRun> {
    const giveUpAt = Date.now() + leaseMs;
    for (let waitMs = 100; ; waitMs = Math.min(waitMs * 2, 2_000)) {
      try {
        return await leases.finish(job.id, outcome, followUp);
      } catch (error) {
        if (!isDatabaseUnavailable(error) || phase !== "started" || Date.now() + waitMs > giveUpAt) throw error;
        log.warn(
          { job_id: job.id, kind: job.kind, error_code: errorCode(error) },
          "job outcome not recorded yet; retrying",
        );
        await new Promise((resolve) => setTimeout(resolve, waitMs));
      }
    }
  }

  /** Runs a job and records its outcome; returns its follow-up, claimed for this worker, if any. */
  async function execute(job: ClaimedJob): Promise<ClaimedJob | undefined> {
    const attempt = job.attempts;
    const followUp = emptyFollowUp();
    let fields: Record<string, unknown> = { job_id: job.id, kind: job.kind, attempt };
    const handle = handles.get(job.kind);
    const started = performance.now();
    let outcome: JobOutcome;
    if (!handle) {
      outcome = { state: "dead", error: `No handler is registered for job kind "${job.kind}".` };
    } else if (attempt > job.max_attempts) {
      // Its last permitted run never reported back (worker crashed or hung past its lease).
      outcome = { state: "dead", error: `The final attempt (${job.max_attempts}) ended without an outcome.` };
    } else {
      try {
        const context = {
          jobId: job.id,
          attempt,
          maxAttempts: job.max_attempts,
          lastAttempt: attempt >= job.max_attempts,
          followUp,
        };
        await handle(job.payload, context);
        outcome = { state: "done" };
      } catch (error) {
        outcome = failureOutcome(error, { attempt, maxAttempts: job.max_attempts }, backoff, random);
        fields = { ...fields, error_code: errorCode(error) };
      } finally {
        // An enqueue after the handler returned (a stray promise) is an ordinary one.
        followUp.taken = true;
      }
    }
    const durationMs = Math.round(performance.now() - started);
    try {
      // A stopping worker claims nothing more: the follow-up stays pending for any worker's poll.
      const finished = await finishWhileLeased(job, outcome, phase === "started" ? followUp.jobId : undefined);
      if (!finished.recorded) {
        log.warn({ ...fields, outcome: outcome.state }, "job outcome dropped: its lease passed to another worker");
      } else if (outcome.state === "done") {
        log.info({ ...fields, duration_ms: durationMs }, "job done");
      } else if (outcome.state === "pending") {
        log.warn({ ...fields, delay_ms: outcome.delayMs, error: outcome.error }, "job failed; retry scheduled");
      } else {
        log.error({ ...fields, error: outcome.error }, "job dead-lettered");
        deps
          .onDeadLettered?.()
          .catch((error: unknown) => log.error({ error: String(error) }, "dead-letter alert failed"));
      }
      return finished.follow_up ?? undefined;
    } catch (error) {
      log.error({ ...fields, error: String(error) }, "job outcome not recorded; it reruns after its lease");
      return undefined;
    }
  }

  return {
    workerId,
    start() {
      if (phase !== "idle") return;
      phase = "started";
      unsubscribe = deps.wake.subscribe(JOB_WAKE_TOPIC, poll);
      pollTimer = setInterval(poll, deps.pollIntervalMs ?? 1_000);
      poll();
    },

    async stop(options = {}) {
      if (phase !== "started") return;
      phase = "stopping";
      clearInterval(pollTimer);
      unsubscribe?.();
      let timeout: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise((resolve) => (timeout = setTimeout(resolve, options.timeoutMs ?? 10_000)));
      // A claim stuck on a dead connection must not hold shutdown past the deadline either.
      await Promise.race([polling, deadline]);
      const settled = Promise.allSettled([...runs].map((run) => run.done));
      await Promise.race([settled, deadline]);
      clearTimeout(timeout);
      if (runs.size > 0) {
        for (const run of runs) clearInterval(run.heartbeat);
        try {
          log.warn({ released: await leases.releaseAll() }, "job worker stopped with jobs unfinished; released them");
        } catch (error) {
          log.error({ error: String(error) }, "releasing unfinished jobs failed; they rerun after their lease");
        }
      }
      phase = "stopped";
    },
  };
}
