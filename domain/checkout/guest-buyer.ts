import type { FieldError } from "../shared/domain-error.ts";
import { emailAddressFault, emailAddressMessage, normalizeEmail } from "../shared/email-address.ts";
import { ValidationFailed } from "../shared/errors.ts";
import { hasControlCharacters } from "../shared/plain-text.ts";

/** Who buys without an account: the address that gets the receipt and the links, and a name to greet. */
export interface GuestBuyer {
  readonly email: string;
  readonly name?: string | undefined;
}

export const GUEST_NAME_MAX_LENGTH = 200;

/** What is wrong with a guest's name (trimmed; empty is allowed), if anything. */
function guestNameError(name: string): FieldError | undefined {
  if (name.length > GUEST_NAME_MAX_LENGTH) {
    return { path: "/name", message: `must be at most ${GUEST_NAME_MAX_LENGTH} characters long`, code: "INVALID_NAME" };
  }
  if (hasControlCharacters(name)) {
    return { path: "/name", message: "must be one line without control characters", code: "CONTROL_CHARACTERS" };
  }
  return undefined;
}

/** A name given with a guest's set-a-password link, trimmed, or undefined when blank; throws when refused. */
export function validateGuestName(input: string | undefined): string | undefined {
  const name = input?.trim() ?? "";
  const error = guestNameError(name);
  if (error) throw new ValidationFailed([error]);
  return name || undefined;
}

/**
 * Checks a guest's address and name and returns them normalized (a missing name is the address's
 * local part), or throws with every offending field.
 */
export function validateGuestBuyer(input: GuestBuyer): { readonly email: string; readonly name: string } {
  const email = normalizeEmail(input.email);
  const name = input.name?.trim() ?? "";
  const errors: FieldError[] = [];
  const fault = emailAddressFault(email);
  if (fault) errors.push({ path: "/email", message: emailAddressMessage(fault), code: "INVALID_EMAIL" });
  const nameError = guestNameError(name);
  if (nameError) errors.push(nameError);
  if (errors.length > 0) throw new ValidationFailed(errors);
  return { email, name: name || email.slice(0, email.lastIndexOf("@")) };
}
