import { DomainError, fixedError, ReasonedRefusal } from "../../domain/shared/domain-error.ts";

export class LicenseNotFound extends fixedError("LICENSE_NOT_FOUND", "not_found", "No valid license has this key.") {}

/** Why a genuine key does not work now; `validate` answers the same words as `reason`. */
export type UnusableReason = "revoked" | "suspended" | "expired" | "replaced";

const UNUSABLE: Readonly<Record<UnusableReason, string>> = {
  revoked: "This license has been revoked.",
  suspended: "This license is suspended while its subscription is unpaid or its payment is disputed.",
  expired: "This license has expired.",
  replaced: "This key was replaced when the license was upgraded; use the new key from your account.",
};

export class LicenseUnusable extends ReasonedRefusal<UnusableReason> {
  constructor(reason: UnusableReason) {
    super("LICENSE", UNUSABLE, reason);
  }
}

export class ActivationLimitReached extends DomainError {
  readonly code = "ACTIVATION_LIMIT_REACHED";
  readonly category = "conflict";
  constructor(max: number) {
    super(`This license is already activated on ${max} machine(s), its maximum.`);
  }
}

/** A machine the license is not activated on (freed before, or never activated). */
export class MachineNotFound extends fixedError("MACHINE_NOT_FOUND", "not_found", "The license has no such machine.") {}

/** A license id that names none of the customer's licenses. */
export class CustomerLicenseNotFound extends fixedError(
  "LICENSE_NOT_FOUND",
  "not_found",
  "The license does not exist.",
) {}
