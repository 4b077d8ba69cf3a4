import { describe, expect, test } from "bun:test";
import type { AuditEntry } from "../../../application/audit/ports.ts";
import {
  API_KEY_STATE_MAX_AGE_MS,
  API_KEY_TOUCH_INTERVAL_MS,
  API_KEYS_TOPIC,
  makeApiKeyAuthenticator,
  makeManageApiKeys,
} from "../../../application/identity/api-keys.ts";
import type { ApiKeys } from "../../../application/identity/ports.ts";
import type { ApiKey } from "../../../domain/identity/api-key.ts";
import { createInMemoryChangeSignal } from "../../support/fakes/in-memory-change-signal.ts";
import { createMovableClock } from "../../support/fakes/movable-clock.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";

/** Keys in memory, counting the lookups and uses the authenticator makes. */
function keysInMemory() {
  const stored: (ApiKey & { secretHash: string })[] = [];
  const audit: AuditEntry[] = [];
  let lookups = 0;
  const touches: string[] = [];
  const keys: ApiKeys = {
    async create(key, entry) {
      const created = {
        id: crypto.randomUUID(),
        name: key.name,
        prefix: key.prefix,
        scopes: key.scopes,
        created_by: key.createdBy,
        created_at: new Date(),
        expires_at: key.expiresAt,
        last_used_at: null,
        revoked_at: null,
        secretHash: key.secretHash,
      };
      stored.push(created);
      audit.push(entry(created));
      return created;
    },
    list: async () => ({ items: stored, next_cursor: null }),
    async revoke(id, at, entry) {
      const index = stored.findIndex((key) => key.id === id);
      const key = stored[index];
      if (!key) return undefined;
      if (!key.revoked_at) audit.push(entry);
      stored[index] = { ...key, revoked_at: key.revoked_at ?? at };
      return stored[index];
    },
    async findBySecretHash(hash) {
      lookups += 1;
      return stored.find((key) => key.secretHash === hash);
    },
    async touch(id) {
      touches.push(id);
    },
  };
  return { keys, stored, audit, touches, lookups: () => lookups };
}

function setUp() {
  const memory = keysInMemory();
  const changes = createInMemoryChangeSignal();
  const time = createMovableClock(new Date("2026-11-28T12:00:00Z"));
  let monotonic = 0;
  const manage = makeManageApiKeys({ keys: memory.keys, changes, clock: time.clock });
  const authenticate = makeApiKeyAuthenticator({
    keys: memory.keys,
    changes,
    clock: time.clock,
    now: () => monotonic,
    log: createRecordingLog(),
  });
  const advance = (ms: number) => {
    monotonic += ms;
    time.advance(ms);
  };
  return { ...memory, changes, manage, authenticate, advance };
}

describe("managing API keys", () => {
  test("a created key's secret authenticates it; the creation is audited without the secret", async () => {
    const t = setUp();
    const { key, secret } = await t.manage.createApiKey("admin-1", { name: "ERP", scopes: ["orders:read"] });
    expect((await t.authenticate(secret))?.id).toBe(key.id);
    expect(t.audit).toEqual([
      {
        actor_id: "admin-1",
        action: "api_key.create",
        target_type: "api_key",
        target_id: key.id,
        summary: { name: "ERP", scopes: ["orders:read"], expires_at: null },
      },
    ]);
    expect(JSON.stringify(t.stored)).not.toContain(secret);
  });

  test("revoking publishes the change; an unknown key is API_KEY_NOT_FOUND", async () => {
    const t = setUp();
    const published: string[] = [];
    t.changes.subscribe(API_KEYS_TOPIC, () => published.push(API_KEYS_TOPIC));
    const { key } = await t.manage.createApiKey("admin-1", { name: "ERP", scopes: ["orders:read"] });
    await t.manage.revokeApiKey("admin-1", key.id);
    expect(published).toEqual([API_KEYS_TOPIC]);
    await expect(t.manage.revokeApiKey("admin-1", "nope")).rejects.toMatchObject({ code: "API_KEY_NOT_FOUND" });
  });
});

describe("authenticating a key", () => {
  test("answers from its cache for 5 s, unknown secrets included, then asks again", async () => {
    const t = setUp();
    const { secret } = await t.manage.createApiKey("admin-1", { name: "ERP", scopes: ["orders:read"] });
    await t.authenticate(secret);
    await t.authenticate(secret);
    await t.authenticate("mk_unknown");
    await t.authenticate("mk_unknown");
    expect(t.lookups()).toBe(2);
    t.advance(API_KEY_STATE_MAX_AGE_MS + 1);
    await t.authenticate(secret);
    expect(t.lookups()).toBe(3);
  });

  test("a revocation empties the cache at once; an expired key is refused", async () => {
    const t = setUp();
    const { key, secret } = await t.manage.createApiKey("admin-1", { name: "ERP", scopes: ["orders:read"] });
    const soon = await t.manage.createApiKey("admin-1", {
      name: "Soon",
      scopes: ["orders:read"],
      expires_at: "2026-11-28T12:00:10Z",
    });
    expect(await t.authenticate(secret)).toBeDefined();
    await t.manage.revokeApiKey("admin-1", key.id);
    expect(await t.authenticate(secret)).toBeUndefined();
    expect(await t.authenticate(soon.secret)).toBeDefined();
    t.advance(10_000);
    expect(await t.authenticate(soon.secret)).toBeUndefined();
  });

  test("notes a use at most once a minute per key", async () => {
    const t = setUp();
    const { key, secret } = await t.manage.createApiKey("admin-1", { name: "ERP", scopes: ["orders:read"] });
    await t.authenticate(secret);
    await t.authenticate(secret);
    t.advance(API_KEY_TOUCH_INTERVAL_MS);
    await t.authenticate(secret);
    expect(t.touches).toEqual([key.id, key.id]);
  });
});
