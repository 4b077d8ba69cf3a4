import { DomainError, type FieldError } from "./domain-error.ts";

/** A request that breaks a business rule on one or more fields. */
export class ValidationFailed extends DomainError {
  readonly code = "VALIDATION_FAILED";
  readonly category = "invalid";

  constructor(errors: readonly FieldError[], message = "The request is not valid.") {
    super(message, errors);
  }
}
