import { emailAddressFault, emailAddressMessage, normalizeEmail } from "../../domain/shared/email-address.ts";
import { hasControlCharacters } from "../../domain/shared/plain-text.ts";
import { ConfigError, type Env, text } from "../../kit/env-parsers.ts";

function checked(name: string, raw: string, address: string): string {
  const fault = emailAddressFault(normalizeEmail(address));
  if (fault) throw new ConfigError(name, emailAddressMessage(fault), raw);
  return address;
}

/** One bare address (`ADMIN_EMAIL`, `OPS_EMAIL`), by the rule every address the shop accepts follows. */
export function emailAddress(env: Env, name: string): string | undefined {
  const raw = text(env, name);
  return raw === undefined ? undefined : checked(name, raw, raw);
}

/**
 * A sender (`MAIL_FROM`): one address, bare (`shop@example.com`) or after a display name on one
 * line (`Shop <shop@example.com>`), as a From header writes it.
 */
export function senderMailbox(env: Env, name: string): string | undefined {
  const raw = text(env, name);
  if (raw === undefined) return undefined;
  const named = /^([^<>"]*)<([^<>]*)>$/.exec(raw);
  if (named && hasControlCharacters(named[1] ?? "")) {
    throw new ConfigError(name, "must have a display name on one line without control characters", raw);
  }
  checked(name, raw, named?.[2] ?? raw);
  return raw;
}
