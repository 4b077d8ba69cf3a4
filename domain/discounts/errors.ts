import { DomainError, fixedError } from "../shared/domain-error.ts";

export class DiscountNotFound extends fixedError("DISCOUNT_NOT_FOUND", "not_found", "The discount does not exist.") {}

/** Codes are unique, without regard to case, among the discounts not disabled. */
export class DiscountCodeTaken extends DomainError {
  readonly code = "DISCOUNT_CODE_TAKEN";
  readonly category = "conflict";
  constructor(code: string) {
    super(`Another active discount already uses the code "${code}".`, [
      { path: "/code", code: "DISCOUNT_CODE_TAKEN", message: "is already used by an active discount" },
    ]);
  }
}

export class DiscountDisabled extends fixedError(
  "DISCOUNT_DISABLED",
  "conflict",
  "The discount is disabled; it cannot change any more.",
) {}
