import { DomainError, fixedError } from "../shared/domain-error.ts";

export class AccountDisabled extends fixedError(
  "ACCOUNT_DISABLED",
  "unauthenticated",
  "This account is disabled; ask an administrator to enable it.",
) {}

export class AdminSelfLockout extends fixedError(
  "ADMIN_SELF_LOCKOUT",
  "conflict",
  "An admin cannot demote or disable their own account; another admin has to.",
) {}

/** A guest record has no password: it can be disabled, never made an admin. */
export class GuestCannotBeAdmin extends fixedError(
  "GUEST_CANNOT_BE_ADMIN",
  "conflict",
  "This is a guest customer record, with no password: it cannot be made an admin.",
) {}

export class EmailAlreadyRegistered extends fixedError(
  "EMAIL_ALREADY_REGISTERED",
  "conflict",
  "An account with this email already exists.",
) {}

/** Deliberately silent on whether the email exists, so it cannot be used to probe accounts. */
export class InvalidCredentials extends fixedError(
  "INVALID_CREDENTIALS",
  "unauthenticated",
  "Email or password is wrong.",
) {}

/** Unknown, used or expired: which one is not said, so a link tells a stranger nothing. */
export class ResetTokenInvalid extends fixedError(
  "RESET_TOKEN_INVALID",
  "malformed",
  "This password reset link is not valid: it was used, it expired, or it never existed. Ask for a new one.",
) {}

/** Unknown, used or expired, like a reset link. */
export class EmailLinkInvalid extends fixedError(
  "EMAIL_LINK_INVALID",
  "malformed",
  "This email link is not valid: it was used, it expired, or it never existed. Ask for a new one.",
) {}

export class EmailAlreadyVerified extends fixedError(
  "EMAIL_ALREADY_VERIFIED",
  "conflict",
  "This account's email address is already verified.",
) {}

/** A signed-in change that needs the password again was given a wrong one. */
export class CurrentPasswordWrong extends fixedError(
  "CURRENT_PASSWORD_WRONG",
  "forbidden",
  "The password given is not this account's password.",
) {}

export class ApiKeyNotFound extends fixedError("API_KEY_NOT_FOUND", "not_found", "The API key does not exist.") {}

/** A route no API key may call: it takes a signed-in admin. */
export class ApiKeyNotAllowed extends fixedError(
  "API_KEY_NOT_ALLOWED",
  "forbidden",
  "API keys cannot call this route; it takes a signed-in admin.",
) {}

/** The key lacks the scope the route needs, named in `missing_scope`. */
export class ApiKeyScopeMissing extends DomainError {
  readonly code = "API_KEY_SCOPE_MISSING";
  readonly category = "forbidden";
  override readonly extensions: Readonly<Record<string, unknown>>;

  constructor(readonly missingScope: string) {
    super(`This API key lacks the scope ${missingScope}, which this route needs.`);
    this.extensions = { missing_scope: missingScope };
  }
}

export class UserNotFound extends fixedError("USER_NOT_FOUND", "not_found", "The user does not exist.") {}

/** Too many failed sign-ins for this account just now: wait `retryAfterSeconds`. */
export class SignInThrottled extends DomainError {
  readonly code = "SIGN_IN_THROTTLED";
  readonly category = "rate_limited";

  constructor(readonly retryAfterSeconds: number) {
    super(`Too many failed sign-ins for this account; retry after ${retryAfterSeconds} s.`);
  }
}

export class AuthenticationRequired extends fixedError(
  "AUTHENTICATION_REQUIRED",
  "unauthenticated",
  "A valid bearer token is required.",
) {}

export class RoleForbidden extends fixedError(
  "FORBIDDEN_ROLE",
  "forbidden",
  "This action is not allowed for your role.",
) {}
