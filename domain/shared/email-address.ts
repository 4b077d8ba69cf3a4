/**
 * One email address, as RFC 5321 writes a mailbox: `local@domain`, nothing else. The local part is
 * a dot-string of `atext` (letters, digits and ``!#$%&'*+-/=?^_`{|}~``); the domain is two or more
 * host-name labels. Quoted local parts (`"a b"@x`), address literals (`x@[10.0.0.1]`), display
 * names, comments and lists are not addresses we send to, so they are refused rather than half
 * understood: `x,eve@victim.example` is not one address and mail to it could reach someone else.
 */
import { hostNameLabels } from "./host-name.ts";

export const EMAIL_MAX_LENGTH = 254;
export const EMAIL_LOCAL_PART_MAX_LENGTH = 64;

const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LOCAL_PART = new RegExp(`^${ATOM}(?:\\.${ATOM})*$`);

export type EmailAddressFault = "format" | "local_part_too_long" | "too_long";

const FAULT_WORDS: Readonly<Record<EmailAddressFault, string>> = {
  format: "must be one email address such as ada@example.com (no list, display name or quotes)",
  local_part_too_long: `must have at most ${EMAIL_LOCAL_PART_MAX_LENGTH} characters before the @`,
  too_long: `must be at most ${EMAIL_MAX_LENGTH} characters long`,
};

/** Emails compare case-insensitively and without surrounding blanks. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** What is wrong with an address (already normalized), or undefined when it is one mailbox. */
export function emailAddressFault(address: string): EmailAddressFault | undefined {
  if (address.length > EMAIL_MAX_LENGTH) return "too_long";
  const at = address.lastIndexOf("@");
  if (at <= 0) return "format";
  const local = address.slice(0, at);
  if (!LOCAL_PART.test(local)) return "format";
  if (local.length > EMAIL_LOCAL_PART_MAX_LENGTH) return "local_part_too_long";
  // A single label (`x@localhost`) reaches no one outside this machine; a numeric last label is an IP.
  if (!hostNameLabels(address.slice(at + 1))) return "format";
  return undefined;
}

/** The words for a fault, to put in a field error or a configuration message. */
export function emailAddressMessage(fault: EmailAddressFault): string {
  return FAULT_WORDS[fault];
}
