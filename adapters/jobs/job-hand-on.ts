import { AsyncLocalStorage } from "node:async_hooks";
import type { ClaimedJob } from "./postgres-job-leases.ts";

/**
 * A job handed on: the first due job a running job enqueues is inserted already leased to the
 * worker that runs the enqueuing job, which runs it next in the same slot once it knows the insert
 * committed: at once when the unit of work saw the commit, else from the statement that records the
 * enqueuing job's outcome. It skips the wake-up, the claim and their round trips, and a chain of
 * jobs (a payment, its delivery, its notification) runs as one stream of work instead of three
 * passes through the queue. If the worker dies first, the lease expires and any worker reclaims the
 * job, as it would any job whose worker died.
 */
export interface HandOn {
  readonly workerId: string;
  readonly leaseMs: number;
  /** JOB_MAX_ATTEMPTS, for the `max_attempts` the claimed row reports when the job sets none. */
  readonly defaultMaxAttempts: number;
  /** Open while the enqueuing job's handler runs; an enqueue after it returned is an ordinary one. */
  open: boolean;
  /** The job handed on, once one was inserted. */
  next: ClaimedJob | undefined;
  /** The transaction (or connection) that inserted `next`, and when (epoch ms). */
  insertedIn?: unknown;
  insertedAt?: number;
  /** Set once the unit of work saw that transaction commit: the worker need not ask the database. */
  committed?: boolean;
}

const running = new AsyncLocalStorage<HandOn>();

/** The hand-on of the job whose handler is running in this async context, if it can still take one. */
export function openHandOn(): HandOn | undefined {
  const handOn = running.getStore();
  return handOn?.open && handOn.next === undefined ? handOn : undefined;
}

/** Records the job handed on, inserted through `where` (a transaction, or the pool itself). */
export function handedOn(handOn: HandOn, next: ClaimedJob | undefined, where: unknown): void {
  handOn.next = next;
  handOn.insertedIn = where;
  handOn.insertedAt = Date.now();
}

/**
 * Told by the unit of work that transaction `tx` committed: if it inserted the running job's
 * hand-on, the worker may start that job without confirming the insert first.
 */
export function transactionCommitted(tx: unknown): void {
  const handOn = running.getStore();
  if (handOn?.next !== undefined && handOn.insertedIn === tx) handOn.committed = true;
}

/** Runs a job's handler with `handOn` open for its enqueues, and closes it when the handler settles. */
export async function runHandingOn<T>(handOn: HandOn, handler: () => Promise<T>): Promise<T> {
  try {
    return await running.run(handOn, handler);
  } finally {
    handOn.open = false;
  }
}
