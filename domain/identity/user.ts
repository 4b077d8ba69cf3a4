import { type FieldError, fixedError, ValidationFailed } from "../shared/domain-error.ts";

export type Role = "customer" | "admin";

export interface User {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly role: Role;
  readonly createdAt: Date;
}

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Emails compare case-insensitively and without surrounding blanks. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export interface Registration {
  readonly email: string;
  readonly password: string;
  readonly name: string;
}

/** Checks a registration and returns it normalized, or throws with every offending field. */
export function validateRegistration(input: Registration): Registration {
  const email = normalizeEmail(input.email);
  const name = input.name.trim();
  const errors: FieldError[] = [];
  if (!EMAIL_PATTERN.test(email) || email.length > 254) {
    errors.push({ path: "/email", message: "must be a valid email address", code: "INVALID_EMAIL" });
  }
  if (input.password.length < PASSWORD_MIN_LENGTH || input.password.length > PASSWORD_MAX_LENGTH) {
    errors.push({
      path: "/password",
      message: `must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long`,
      code: "INVALID_PASSWORD_LENGTH",
    });
  }
  if (name.length === 0 || name.length > 200) {
    errors.push({ path: "/name", message: "must be 1 to 200 characters long", code: "INVALID_NAME" });
  }
  if (errors.length > 0) throw new ValidationFailed(errors);
  return { email, password: input.password, name };
}

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

export class UserNotFound extends fixedError("USER_NOT_FOUND", "not_found", "The user does not exist.") {}
