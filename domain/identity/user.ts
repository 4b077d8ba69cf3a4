import type { FieldError } from "../shared/domain-error.ts";
import { emailAddressFault, emailAddressMessage, normalizeEmail } from "../shared/email-address.ts";
import { ValidationFailed } from "../shared/errors.ts";
import { hasControlCharacters } from "../shared/plain-text.ts";
import { passwordFieldError } from "./password-policy.ts";

export { normalizeEmail } from "../shared/email-address.ts";

export type Role = "customer" | "admin";

export interface User {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly role: Role;
  /** Whether the account proved it receives mail at `email` (a link sent there was opened). */
  readonly emailVerified: boolean;
  /**
   * A guest customer record: someone bought without an account. It has no password and cannot sign
   * in until a link emailed to the address sets one.
   */
  readonly guest: boolean;
  readonly createdAt: Date;
}

export const NAME_MAX_LENGTH = 200;

export interface Registration {
  readonly email: string;
  readonly password: string;
  readonly name: string;
}

/**
 * Checks a registration and returns it normalized, or throws with every offending field.
 * `commonPassword` says whether the list of common passwords holds its password.
 */
export function validateRegistration(input: Registration, commonPassword: boolean): Registration {
  const email = normalizeEmail(input.email);
  const name = input.name.trim();
  const errors: FieldError[] = [];
  const emailFault = emailAddressFault(email);
  if (emailFault) errors.push({ path: "/email", message: emailAddressMessage(emailFault), code: "INVALID_EMAIL" });
  const passwordError = passwordFieldError("/password", input.password, commonPassword);
  if (passwordError) errors.push(passwordError);
  if (name.length === 0 || name.length > NAME_MAX_LENGTH) {
    errors.push({ path: "/name", message: `must be 1 to ${NAME_MAX_LENGTH} characters long`, code: "INVALID_NAME" });
  } else if (hasControlCharacters(name)) {
    errors.push({ path: "/name", message: "must be one line without control characters", code: "CONTROL_CHARACTERS" });
  }
  if (errors.length > 0) throw new ValidationFailed(errors);
  return { email, password: input.password, name };
}
