import type { FieldError } from "../shared/domain-error.ts";
import { ValidationFailed } from "../shared/errors.ts";
import { hasControlCharacters, ONE_LINE_TEXT } from "../shared/plain-text.ts";

/**
 * What an API key may do, each a resource and `read` or `write`. A route outside every scope (the
 * keys themselves, accounts' access, gateways, secrets, jobs, the audit log) takes a signed-in
 * admin: a key cannot widen its own reach or another's.
 */
export const API_KEY_SCOPES = [
  "catalog:read",
  "catalog:write",
  "orders:read",
  "orders:write",
  "fulfillments:read",
  "fulfillments:write",
  "customers:read",
  "webhooks:read",
  "webhooks:write",
] as const;

export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Every key's secret starts so, which tells it from a session token (a JWT) at a glance and to secret scanners. */
export const API_KEY_SECRET_PREFIX = "mk_";

/** Characters of the secret kept in the clear, after the prefix, to tell keys apart in a list. */
export const API_KEY_SHOWN_CHARACTERS = 8;

export const API_KEY_NAME_MAX_LENGTH = 100;

export interface ApiKey {
  readonly id: string;
  readonly name: string;
  /** The secret's first characters (`mk_` and 8 more): enough to recognize it, too few to use it. */
  readonly prefix: string;
  readonly scopes: readonly ApiKeyScope[];
  /** The admin who created it. */
  readonly created_by: string;
  readonly created_at: Date;
  readonly expires_at: Date | null;
  readonly last_used_at: Date | null;
  readonly revoked_at: Date | null;
}

export interface ApiKeyRequest {
  readonly name: string;
  readonly scopes: readonly string[];
  readonly expires_at?: string | null | undefined;
}

export interface ValidApiKeyRequest {
  readonly name: string;
  readonly scopes: readonly ApiKeyScope[];
  readonly expiresAt: Date | null;
}

const isScope = (value: string): value is ApiKeyScope => (API_KEY_SCOPES as readonly string[]).includes(value);

/** Checks a new key's name, scopes and expiry (in the future of `now`), naming every bad field. */
export function validateApiKeyRequest(input: ApiKeyRequest, now: Date): ValidApiKeyRequest {
  const errors: FieldError[] = [];
  const name = input.name.trim();
  if (name.length === 0 || name.length > API_KEY_NAME_MAX_LENGTH) {
    errors.push({
      path: "/name",
      message: `must be 1 to ${API_KEY_NAME_MAX_LENGTH} characters long`,
      code: "INVALID_NAME",
    });
  } else if (hasControlCharacters(name)) {
    errors.push({ path: "/name", message: ONE_LINE_TEXT, code: "CONTROL_CHARACTERS" });
  }
  const scopes: ApiKeyScope[] = [];
  input.scopes.forEach((scope, index) => {
    if (!isScope(scope)) {
      errors.push({
        path: `/scopes/${index}`,
        message: `is not a scope; one of ${API_KEY_SCOPES.join(", ")}`,
        code: "UNKNOWN_SCOPE",
      });
    } else if (scopes.includes(scope)) {
      errors.push({ path: `/scopes/${index}`, message: "is given twice", code: "DUPLICATE_SCOPE" });
    } else {
      scopes.push(scope);
    }
  });
  if (input.scopes.length === 0) {
    errors.push({ path: "/scopes", message: "must name at least one scope", code: "NO_SCOPES" });
  }
  let expiresAt: Date | null = null;
  if (input.expires_at !== undefined && input.expires_at !== null) {
    expiresAt = new Date(input.expires_at);
    if (Number.isNaN(expiresAt.getTime()) || expiresAt <= now) {
      errors.push({ path: "/expires_at", message: "must be a time in the future", code: "INVALID_EXPIRY" });
    }
  }
  if (errors.length > 0) throw new ValidationFailed(errors);
  return { name, scopes, expiresAt };
}

/** Whether a bearer credential is an API key's secret rather than a session token. */
export const isApiKeySecret = (credential: string): boolean => credential.startsWith(API_KEY_SECRET_PREFIX);

/** Whether the key still works at `now`: not revoked, not expired. */
export const isApiKeyLive = (key: Pick<ApiKey, "revoked_at" | "expires_at">, now: Date): boolean =>
  key.revoked_at === null && (key.expires_at === null || key.expires_at > now);
