import {
  API_KEY_SECRET_PREFIX,
  API_KEY_SHOWN_CHARACTERS,
  type ApiKey,
  type ApiKeyRequest,
  isApiKeyLive,
  validateApiKeyRequest,
} from "../../domain/identity/api-key.ts";
import { ApiKeyNotFound } from "../../domain/identity/errors.ts";
import type { Clock, Log } from "../shared/clock-and-log.ts";
import type { ChangeSignal, PageRequest } from "../shared/ports.ts";
import { linkToken, sha256Hex } from "../shared/secrets-in-links.ts";
import type { ApiKeys } from "./ports.ts";

/** Published after a key is revoked, so every instance forgets what it knew of it at once. */
export const API_KEYS_TOPIC = "api_keys";

/** The longest an instance acts on what it read of a key, should the revocation's signal be lost. */
export const API_KEY_STATE_MAX_AGE_MS = 5_000;
const MAX_ENTRIES = 10_000;
/** A key's `last_used_at` is written at most this often per instance: a busy integration costs no write per request. */
export const API_KEY_TOUCH_INTERVAL_MS = 60_000;

/** A new key and its secret, which is shown this once and kept nowhere. */
export interface CreatedApiKey {
  readonly key: ApiKey;
  readonly secret: string;
}

export function makeManageApiKeys(deps: {
  readonly keys: ApiKeys;
  readonly changes: ChangeSignal;
  readonly clock: Clock;
}) {
  return {
    /** `mk_` and 256 random bits; only its SHA-256 and its first characters are stored. */
    async createApiKey(actorId: string, input: ApiKeyRequest): Promise<CreatedApiKey> {
      const valid = validateApiKeyRequest(input, deps.clock());
      const secret = `${API_KEY_SECRET_PREFIX}${linkToken()}`;
      const key = await deps.keys.create(
        {
          name: valid.name,
          prefix: secret.slice(0, API_KEY_SECRET_PREFIX.length + API_KEY_SHOWN_CHARACTERS),
          secretHash: await sha256Hex(secret),
          scopes: valid.scopes,
          createdBy: actorId,
          expiresAt: valid.expiresAt,
        },
        (created) => ({
          actor_id: actorId,
          action: "api_key.create",
          target_type: "api_key",
          target_id: created.id,
          summary: {
            name: created.name,
            scopes: created.scopes,
            expires_at: created.expires_at?.toISOString() ?? null,
          },
        }),
      );
      return { key, secret };
    },

    listApiKeys: (page: PageRequest) => deps.keys.list(page),

    /** Refused at once here, and on every other instance as soon as the signal arrives (5 s at most). */
    async revokeApiKey(actorId: string, id: string): Promise<ApiKey> {
      const revoked = await deps.keys.revoke(id, deps.clock(), {
        actor_id: actorId,
        action: "api_key.revoke",
        target_type: "api_key",
        target_id: id,
      });
      if (!revoked) throw new ApiKeyNotFound();
      await deps.changes.publish(API_KEYS_TOPIC);
      return revoked;
    },
  };
}

interface Entry {
  readonly key: ApiKey | undefined;
  readonly expiresAt: number;
}

/**
 * Which live key a secret is, for the auth guard, without a query per request: answers are cached
 * by the secret's hash for at most `API_KEY_STATE_MAX_AGE_MS`, and dropped on every instance when a
 * key is revoked. Unknown secrets are cached too, so guessing costs no query either. Each use is
 * noted in `last_used_at`, at most once a minute per key and instance, without holding the request.
 */
export function makeApiKeyAuthenticator(deps: {
  readonly keys: ApiKeys;
  readonly changes: ChangeSignal;
  readonly clock: Clock;
  /** Monotonic milliseconds. */
  now(): number;
  readonly log: Log;
}) {
  const entries = new Map<string, Entry>();
  const touched = new Map<string, number>();
  let generation = 0;
  deps.changes.subscribe(API_KEYS_TOPIC, () => {
    generation += 1;
    entries.clear();
  });

  async function lookUp(secretHash: string): Promise<ApiKey | undefined> {
    const entry = entries.get(secretHash);
    if (entry && entry.expiresAt > deps.now()) return entry.key;
    const sentAt = deps.now();
    const sentIn = generation;
    const key = await deps.keys.findBySecretHash(secretHash);
    if (sentIn === generation) {
      entries.delete(secretHash);
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      entries.set(secretHash, { key, expiresAt: sentAt + API_KEY_STATE_MAX_AGE_MS });
    }
    return key;
  }

  function noteUse(key: ApiKey) {
    const last = touched.get(key.id);
    const now = deps.now();
    if (last !== undefined && now - last < API_KEY_TOUCH_INTERVAL_MS) return;
    touched.set(key.id, now);
    deps.keys.touch(key.id, deps.clock()).catch((error: unknown) => {
      touched.delete(key.id);
      deps.log.warn({ api_key_id: key.id, error: String(error) }, "could not note an API key's use");
    });
  }

  return async function authenticateApiKey(secret: string): Promise<ApiKey | undefined> {
    const key = await lookUp(await sha256Hex(secret));
    if (!key || !isApiKeyLive(key, deps.clock())) return undefined;
    noteUse(key);
    return key;
  };
}
