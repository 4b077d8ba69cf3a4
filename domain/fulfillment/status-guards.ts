import { IllegalFulfillmentTransition } from "./errors.ts";
import { canTransition, FULFILLMENT_STATUSES, type FulfillmentStatus } from "./fulfillment.ts";

declare const checkedAgainstTheTable: unique symbol;

/**
 * The guard of an update that moves a fulfillment in one statement (`where status in from`): the
 * database refuses what the guard refuses, so two writers never both move one record. Only
 * `statusGuard` makes one, and it refuses any move the state machine does not allow.
 */
export interface StatusGuard<To extends FulfillmentStatus = FulfillmentStatus> {
  readonly from: readonly FulfillmentStatus[];
  readonly to: readonly To[];
  readonly [checkedAgainstTheTable]: true;
}

/** Every status the state machine lets become `to`. */
export function sourcesFor(to: FulfillmentStatus): readonly FulfillmentStatus[] {
  return FULFILLMENT_STATUSES.filter((from) => canTransition(from, to));
}

/**
 * A guard from each of `from` to each of `to`. A caller may be narrower than the table (only the
 * run that holds a record settles it), never wider: a pair the table forbids throws
 * `IllegalFulfillmentTransition` here, when the module that declares the guard loads.
 */
export function statusGuard<const To extends FulfillmentStatus>(
  from: readonly FulfillmentStatus[],
  to: readonly To[],
): StatusGuard<To> {
  for (const source of from) {
    for (const target of to) {
      if (!canTransition(source, target)) throw new IllegalFulfillmentTransition(source, target);
    }
  }
  return { from, to } as unknown as StatusGuard<To>;
}

/** The same guard, only from `status`: a move that must start where the record was read. */
export function fromOnly<To extends FulfillmentStatus>(
  guard: StatusGuard<To>,
  status: FulfillmentStatus,
): StatusGuard<To> {
  const refused = guard.to.find(() => !guard.from.includes(status));
  if (refused) throw new IllegalFulfillmentTransition(status, refused);
  return statusGuard([status], guard.to);
}

/** Every guard the fulfillment use cases move records with, by what the move is for. */
export const FULFILLMENT_GUARDS = {
  /** A fulfill job takes a queued record to its adapter. */
  start: statusGuard(["queued"], ["processing"]),
  /** Only the run that holds a record settles it, with what its adapter delivered. */
  deliver: statusGuard(["processing"], ["active", "awaiting_customer", "manual_pending"]),
  /** ... or with its failure: back to the queue for another attempt, or failed for good. */
  fail: statusGuard(["processing"], ["queued", "failed"]),
  /** A failed record goes back to the queue: a customer's or an admin's retry, a redriven job. */
  retry: statusGuard(["failed"], ["queued"]),
  /** The customer supplied what an item waited for: delivery resumes. */
  resumeWithInput: statusGuard(["awaiting_customer"], ["processing"]),
  /** Ops completed the task a manual item waited for. */
  completeTask: statusGuard(["manual_pending"], ["active"]),
  /** Cancel ends any live state (and a failed one). */
  cancel: statusGuard(sourcesFor("cancelled"), ["cancelled"]),
} as const;
