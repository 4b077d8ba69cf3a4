import { DomainError, type FieldError } from "../shared/domain-error.ts";

/**
 * A secret named for another purpose than the one it was stored for: refused before anything is
 * sent (422). Permanent, so a delivery that meets it fails at once instead of retrying.
 */
export class SecretPurposeMismatch extends DomainError {
  readonly code = "SECRET_PURPOSE_MISMATCH";
  readonly category = "invalid";
  readonly transient = false;

  constructor(mismatches: readonly { readonly path?: string; readonly message: string }[]) {
    const errors: FieldError[] = mismatches.map((m) => ({
      path: m.path ?? "/",
      code: "SECRET_PURPOSE_MISMATCH",
      message: m.message,
    }));
    super(`${mismatches.map((m) => m.message).join("; ")}.`, errors);
  }
}
