import { AsyncLocalStorage } from "node:async_hooks";

/**
 * A job handed on: the first job due now that a running job's handler enqueues is inserted as any
 * job is, but without waking the workers, and the statement that records the handler's outcome
 * claims it by id for the same worker, which runs it next in the same slot. A chain of jobs (a
 * payment, its delivery, its notification) then runs as one stream of work instead of three
 * passes through the queue. The job is an ordinary pending job until that claim: if the handler's
 * transaction rolled back there is nothing to claim, if another worker's poll took it first the
 * claim finds nothing, and if this worker stops or dies first any worker's poll runs it.
 */
export interface HandOn {
  /** Open while the running job's handler runs; an enqueue after it returned is an ordinary one. */
  open: boolean;
  /** Taken by the first enqueue that hands on, before its insert: one job per run. */
  taken: boolean;
  /** The id of the job handed on, once inserted (none after a dedupe conflict). */
  next: string | undefined;
}

const running = new AsyncLocalStorage<HandOn>();

export const newHandOn = (): HandOn => ({ open: true, taken: false, next: undefined });

/** The hand-on of the job whose handler runs in this async context, taken for the caller if still free. */
export function takeHandOn(): HandOn | undefined {
  const handOn = running.getStore();
  if (!handOn?.open || handOn.taken) return undefined;
  handOn.taken = true;
  return handOn;
}

/** Runs a job's handler with `handOn` open for its enqueues, and closes it when the handler settles. */
export async function runHandingOn<T>(handOn: HandOn, handler: () => Promise<T>): Promise<T> {
  try {
    return await running.run(handOn, handler);
  } finally {
    handOn.open = false;
  }
}

/**
 * Runs `work` outside any handler's hand-on: the worker's own bookkeeping (claims, outcomes, alerts),
 * which a wake-up published inside a handler (embedded mode) would otherwise start in its context.
 */
export function outsideHandOn<T>(work: () => T): T {
  return running.exit(work);
}
