/** The value that stands in for a secret in an audit summary. */
export const REDACTED = "[redacted]";

/**
 * Key names that carry a secret or key material (`api_key`, `webhook_secret`, `client_key`,
 * `password`, `private_key`, a bare `key`...). Matched on the lower-cased name with `-` as `_`.
 */
const SECRET_KEY =
  /secret|password|passwd|passphrase|token|api_?key|private_?key|key_?material|authorization|bearer|cookie|credential|(^|_)key$/;

/** A `*_ref` names a stored secret and a `*_configured` says whether one resolves: neither is the secret. */
const NAMES_A_SECRET = /_(ref|refs|configured)$/;

/** Values shaped like well-known secrets, whatever key holds them. */
const SECRET_VALUE =
  /^(sk|rk|pk)_(live|test)_|^whsec_|^pdl_|^eyJ[A-Za-z0-9_-]+\.|^Bearer\s|-----BEGIN [A-Z ]*PRIVATE KEY-----/i;

function isSecretKey(key: string): boolean {
  const name = key.toLowerCase().replaceAll("-", "_");
  return SECRET_KEY.test(name) && !NAMES_A_SECRET.test(name);
}

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function redactValue(value: unknown): unknown {
  if (typeof value === "string") return SECRET_VALUE.test(value) ? REDACTED : value;
  if (Array.isArray(value)) return value.map(redactValue);
  if (isPlainObject(value)) return redactSummary(value);
  return value;
}

/**
 * What an audit entry may keep of a change: the same shape, with the value of every secret-like
 * key (at any depth, arrays included) and every secret-shaped string replaced by `"[redacted]"`.
 * A secret key left empty (`null`) stays `null`: that it was cleared is no secret.
 */
export function redactSummary(summary: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(summary).map(([key, value]) => [
      key,
      isSecretKey(key) && value !== null && value !== undefined ? REDACTED : redactValue(value),
    ]),
  );
}
