import type { FieldError } from "../shared/domain-error.ts";

/**
 * NIST SP 800-63B (5.1.1.2) for passwords a person chooses: at least 12 characters, at most 256,
 * no composition rules, and none that a list of common or breached passwords holds. A character
 * is a Unicode code point, so an emoji counts once.
 */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

/** Which rule a new password breaks, as the field error's code says it. */
export type PasswordRule = "PASSWORD_TOO_SHORT" | "PASSWORD_TOO_LONG" | "PASSWORD_TOO_COMMON";

const MESSAGES: Readonly<Record<PasswordRule, string>> = {
  PASSWORD_TOO_SHORT: `must be at least ${PASSWORD_MIN_LENGTH} characters long`,
  PASSWORD_TOO_LONG: `must be at most ${PASSWORD_MAX_LENGTH} characters long`,
  PASSWORD_TOO_COMMON: "is on a list of common passwords; choose another (a few unrelated words make a good one)",
};

/** The rule `password` breaks, if any. `common` says whether the list of common passwords holds it. */
export function brokenPasswordRule(password: string, common: boolean): PasswordRule | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return "PASSWORD_TOO_SHORT";
  if (length > PASSWORD_MAX_LENGTH) return "PASSWORD_TOO_LONG";
  return common ? "PASSWORD_TOO_COMMON" : undefined;
}

/** The field error for a new password at `path`, naming the rule it breaks; none when it is fine. */
export function passwordFieldError(path: string, password: string, common: boolean): FieldError | undefined {
  const rule = brokenPasswordRule(password, common);
  return rule ? { path, message: MESSAGES[rule], code: rule } : undefined;
}
