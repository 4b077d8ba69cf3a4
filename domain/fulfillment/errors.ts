import { DomainError, fixedError } from "../shared/domain-error.ts";
import type { FulfillmentStatus } from "./fulfillment.ts";

export class IllegalFulfillmentTransition extends DomainError {
  readonly code = "ILLEGAL_FULFILLMENT_TRANSITION";
  readonly category = "conflict";
  constructor(from: FulfillmentStatus, to: FulfillmentStatus) {
    super(`A fulfillment that is ${from} cannot become ${to}.`);
  }
}

/** The fulfillment (or what its driver delivered) is in a state that does not allow the request. */
export class FulfillmentStateConflict extends DomainError {
  readonly code = "FULFILLMENT_STATE_CONFLICT";
  readonly category = "conflict";
}

export class FulfillmentNotFound extends fixedError(
  "FULFILLMENT_NOT_FOUND",
  "not_found",
  "The fulfillment does not exist.",
) {}

/** A product whose stored configuration its driver cannot use: no retry can fix it. */
export class FulfillmentConfigInvalid extends DomainError {
  readonly code = "FULFILLMENT_CONFIG_INVALID";
  readonly category = "conflict";
  readonly transient = false;
}

export class InstallationDomainTaken extends fixedError(
  "DOMAIN_TAKEN",
  "conflict",
  "Another installation already uses this domain; choose another one.",
) {}

export class TaskNotFound extends fixedError(
  "TASK_NOT_FOUND",
  "not_found",
  "The task does not exist or is no longer open.",
) {}
