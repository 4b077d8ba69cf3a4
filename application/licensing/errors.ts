import { DomainError, fixedError, ReasonedRefusal } from "../../domain/shared/domain-error.ts";

export class LicenseNotFound extends fixedError("LICENSE_NOT_FOUND", "not_found", "No valid license has this key.") {}

/** Why a genuine key does not work now; `validate` answers the same words as `reason`. */
export type UnusableReason = "revoked" | "suspended" | "expired" | "replaced";

const UNUSABLE: Readonly<Record<UnusableReason, string>> = {
  revoked: "This license has been revoked.",
  suspended: "This license is suspended: its subscription is unpaid, its payment disputed, or the shop holds it.",
  expired: "This license has expired.",
  replaced: "This key was replaced (an upgrade or a reissue); use the new key from your account.",
};

export class LicenseUnusable extends ReasonedRefusal<UnusableReason> {
  constructor(reason: UnusableReason) {
    super("LICENSE", UNUSABLE, reason);
  }
}

export class ActivationLimitReached extends DomainError {
  readonly code = "ACTIVATION_LIMIT_REACHED";
  readonly category = "conflict";
  override readonly extensions: Readonly<Record<string, unknown>> | undefined;
  /** `retryAfter`: seconds until a floating seat may free (its holder's heartbeat is due); null when none will by itself. */
  constructor(max: number, retryAfter: number | null) {
    super(
      retryAfter === null
        ? `This license is already activated on ${max} machine(s), its maximum.`
        : `All ${max} seat(s) of this floating license are in use; one may free in ${retryAfter} s.`,
    );
    this.extensions = retryAfter === null ? undefined : { retry_after: retryAfter };
  }
}

/** A machine the license is not activated on (freed before, or never activated). */
export class MachineNotFound extends fixedError("MACHINE_NOT_FOUND", "not_found", "The license has no such machine.") {}

/** A machine holding an offline license file keeps its seat until the file expires. */
export class MachineCheckedOut extends fixedError(
  "MACHINE_CHECKED_OUT",
  "conflict",
  "This machine holds an offline license file; its seat frees when the file expires (or an admin resets the machines).",
) {}

export class LicenseNotSuspended extends fixedError(
  "LICENSE_NOT_SUSPENDED",
  "conflict",
  "The license is not suspended; there is nothing to reinstate.",
) {}

export class LicenseAlreadySuspended extends fixedError(
  "LICENSE_ALREADY_SUSPENDED",
  "conflict",
  "An admin already suspended this license.",
) {}

export class LicensePerpetual extends fixedError(
  "LICENSE_PERPETUAL",
  "conflict",
  "The license never expires; there is nothing to extend.",
) {}

export class FingerprintNotActivated extends fixedError(
  "FINGERPRINT_NOT_ACTIVATED",
  "conflict",
  "The license is not activated on this machine; activate it first.",
) {}

export class HeartbeatMissed extends fixedError(
  "HEARTBEAT_MISSED",
  "conflict",
  "This machine missed its heartbeat and its seat went back to the pool; activate it again.",
) {}

export class OfflineCheckoutDisabled extends fixedError(
  "OFFLINE_CHECKOUT_DISABLED",
  "conflict",
  "This license cannot be checked out for offline use.",
) {}

/** A license id that names none of the customer's licenses. */
export class CustomerLicenseNotFound extends fixedError(
  "LICENSE_NOT_FOUND",
  "not_found",
  "The license does not exist.",
) {}
