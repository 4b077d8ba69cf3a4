import { describe, expect, test } from "bun:test";
import { loadMigrations, migrate } from "../../../adapters/postgres/migrate.ts";
import { createSecretCipher } from "../../../adapters/secrets/secret-cipher.ts";
import { createSecretStore, environmentName } from "../../../adapters/secrets/secret-store.ts";
import { createInProcessChangeSignal } from "../../../adapters/signals/in-process-change-signal.ts";
import { SecretPurposeMismatch } from "../../../domain/secrets/errors.ts";
import { gatewayPurpose, type SecretPurpose } from "../../../domain/secrets/secret-purpose.ts";
import { createTestDatabase, useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();
const KEY = "unit-test-secrets-key-0123456789-abcdef";
const store = (env: Record<string, string> = {}, keyMaterial = KEY) =>
  createSecretStore({ sql: db.current.sql, keyMaterial, env, changes: createInProcessChangeSignal() });
const BEARER: SecretPurpose = { kind: "provider_bearer_token" };
const HMAC: SecretPurpose = { kind: "provider_hmac_key" };

const mismatch = async (promise: Promise<unknown>) => {
  const error = await promise.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(SecretPurposeMismatch);
  return (error as SecretPurposeMismatch).message;
};

describe("secret store", () => {
  test("a stored value resolves, and only ciphertext reaches the database", async () => {
    await store().put("pos_token", "s3cr3t-value-123", BEARER);
    expect(await store().resolve("pos_token", BEARER)).toBe("s3cr3t-value-123");
    const [row] = await db.current.sql<
      { ciphertext: Uint8Array }[]
    >`select ciphertext from secrets where ref = 'pos_token'`;
    expect(Buffer.from(row?.ciphertext ?? []).toString("utf8")).not.toContain("s3cr3t");
  });

  test("the environment answers when nothing is stored; a stored value wins", async () => {
    const env = { SECRET_GATEWAY_A_API_KEY: "from-env" };
    expect(await store(env).resolve("gateway_a.api-key", BEARER)).toBe("from-env");
    await store().put("gateway_a.api-key", "from-store", undefined);
    expect(await store(env).resolve("gateway_a.api-key", BEARER)).toBe("from-store");
    expect(await store().resolve("never-set", BEARER)).toBeUndefined();
  });

  test("environment names upper-case the reference and replace other characters", () => {
    expect(environmentName("provider_sim.token-1")).toBe("SECRET_PROVIDER_SIM_TOKEN_1");
  });

  test("a ciphertext moved to another reference does not open", async () => {
    await store().put("first", "one", BEARER);
    await db.current.sql`
      insert into secrets (ref, iv, ciphertext) select 'second', iv, ciphertext from secrets where ref = 'first'`;
    await expect(store().resolve("second", BEARER)).rejects.toThrow();
  });

  test("another key cannot open stored values", async () => {
    await store().put("rotated", "value", BEARER);
    await expect(store({}, "another-key-0123456789-0123456789-abc").resolve("rotated", BEARER)).rejects.toThrow();
  });

  test("a write through one store is seen by a store that had cached the old value", async () => {
    const changes = createInProcessChangeSignal();
    const a = createSecretStore({ sql: db.current.sql, keyMaterial: KEY, env: {}, changes });
    const b = createSecretStore({ sql: db.current.sql, keyMaterial: KEY, env: {}, changes });
    await a.put("shared", "v1", BEARER);
    expect(await b.resolve("shared", BEARER)).toBe("v1");
    await a.put("shared", "v2", BEARER);
    expect(await b.resolve("shared", BEARER)).toBe("v2");
  });

  test("list names references, sources and purposes, never values", async () => {
    await store().put("listed", "hidden-value", HMAC);
    const items = await store({ SECRET_FROM_ENV: "env-value", SECRET_GATEWAY_B_LIVE_API_KEY: "sk" }).list();
    expect(items).toContainEqual(expect.objectContaining({ ref: "listed", source: "stored", purpose: HMAC }));
    expect(items).toContainEqual({ ref: "from_env", source: "environment", updated_at: null, purpose: undefined });
    expect(items).toContainEqual({
      ref: "gateway_b_live_api_key",
      source: "environment",
      updated_at: null,
      purpose: gatewayPurpose("gateway_api_key", "gateway_b", "live"),
    });
    expect(JSON.stringify(items)).not.toContain("value");
  });
});

describe("purposes", () => {
  test("a gateway's well-known reference resolves only for its own gateway, environment and kind", async () => {
    const secrets = store({ SECRET_GATEWAY_B_SANDBOX_WEBHOOK_SECRET: "whsec_x" });
    const ref = "gateway_b_sandbox_webhook_secret";
    expect(await secrets.resolve(ref, gatewayPurpose("gateway_webhook_secret", "gateway_b", "sandbox"))).toBe(
      "whsec_x",
    );
    expect(await mismatch(secrets.resolve(ref, BEARER))).toContain(
      "gateway_b_sandbox_webhook_secret is a gateway_b sandbox webhook secret (gateway_webhook_secret) and cannot be used as a provider bearer token (provider_bearer_token)",
    );
    await mismatch(secrets.resolve(ref, gatewayPurpose("gateway_api_key", "gateway_b", "sandbox")));
    await mismatch(secrets.resolve(ref, gatewayPurpose("gateway_webhook_secret", "gateway_b", "live")));
    await mismatch(secrets.resolve(ref, gatewayPurpose("gateway_webhook_secret", "gateway_a", "sandbox")));
  });

  test("a well-known reference cannot be declared for another purpose", async () => {
    await mismatch(store().put("gateway_a_live_api_key", "pdl_x", BEARER));
    expect(await db.current.sql`select ref from secrets where ref = 'gateway_a_live_api_key'`).toHaveLength(0);
  });

  test("a declared purpose holds, across instances and after the cache is dropped", async () => {
    await store().put("pos_hmac", "k", HMAC);
    await mismatch(store().resolve("pos_hmac", BEARER));
    expect(await store().resolve("pos_hmac", HMAC)).toBe("k");
  });

  test("a reference without a purpose takes the one of its first use, once", async () => {
    const env = { SECRET_LEGACY: "v" };
    expect(await store(env).resolve("legacy", HMAC)).toBe("v");
    await mismatch(store(env).resolve("legacy", BEARER));
    await mismatch(store(env).claim([{ path: "/x", ref: "legacy", purpose: BEARER }]));
  });

  test("a claim names every use that differs, each at its field", async () => {
    const error = await store()
      .claim([
        {
          path: "/sandbox/api_key_ref",
          ref: "gateway_b_live_api_key",
          purpose: gatewayPurpose("gateway_api_key", "gateway_b", "sandbox"),
        },
        {
          path: "/sandbox/client_key_ref",
          ref: "gateway_b_sandbox_client_key",
          purpose: gatewayPurpose("gateway_client_key", "gateway_b", "sandbox"),
        },
        {
          path: "/live/client_key_ref",
          ref: "gateway_b_live_webhook_secret",
          purpose: gatewayPurpose("gateway_client_key", "gateway_b", "live"),
        },
      ])
      .catch((caught: unknown) => caught);
    expect((error as SecretPurposeMismatch).errors?.map((e) => e.path)).toEqual([
      "/sandbox/api_key_ref",
      "/live/client_key_ref",
    ]);
  });

  test("a new value may take a new purpose (the old value is gone); without one it keeps its purpose", async () => {
    await store().put("rotating", "first", BEARER);
    await store().put("rotating", "second", undefined);
    await mismatch(store().resolve("rotating", HMAC));
    await store().put("rotating", "third", HMAC);
    expect(await store().resolve("rotating", HMAC)).toBe("third");
    await mismatch(store().resolve("rotating", BEARER));
  });
});

describe("one secret, one name", () => {
  const LIVE_WEBHOOK = gatewayPurpose("gateway_webhook_secret", "gateway_b", "live");
  const SPELLINGS = [
    "GATEWAY_B_LIVE_WEBHOOK_SECRET",
    "gateway-b-live-webhook-secret",
    "gateway_b.live.webhook_secret",
    "Gateway-B.Live_webhook-SECRET",
  ];

  test.each(SPELLINGS)("%s is the gateway's webhook secret: no other purpose can claim it", async (ref) => {
    const secrets = store({ SECRET_GATEWAY_B_LIVE_WEBHOOK_SECRET: "whsec_live" });
    await mismatch(secrets.resolve(ref, BEARER));
    await mismatch(
      secrets.claim([{ path: "/x", ref, purpose: gatewayPurpose("gateway_api_key", "gateway_b", "sandbox") }]),
    );
    await mismatch(secrets.put(ref, "pdl_x", HMAC));
    expect(await secrets.resolve(ref, LIVE_WEBHOOK)).toBe("whsec_live");
    expect(await db.current.sql`select ref from secret_purposes where ref ilike 'gateway%webhook%'`).toHaveLength(0);
  });

  test("a purpose taken under one spelling holds for every other", async () => {
    const env = { SECRET_SPELLED_TOKEN: "v" };
    expect(await store(env).resolve("spelled_token", BEARER)).toBe("v");
    for (const ref of ["SPELLED_TOKEN", "spelled-token", "spelled.token", "Spelled-TOKEN"]) {
      await mismatch(store(env).resolve(ref, HMAC));
    }
    const rows = await db.current.sql<{ ref: string }[]>`select ref from secret_purposes where ref ilike 'spelled%'`;
    expect(rows.map((row) => row.ref)).toEqual(["spelled_token"]);
  });

  test("a value stored under one spelling is the one every spelling reads, listed once", async () => {
    await store().put("Pos-Hmac", "first", HMAC);
    await store().put("pos.hmac", "second", undefined);
    expect(await store().resolve("POS_HMAC", HMAC)).toBe("second");
    await mismatch(store().resolve("pos_hmac", BEARER));
    expect(await store().has("pos-hmac")).toBe(true);
    expect((await store().list()).map((item) => item.ref).filter((ref) => /^pos.hmac$/i.test(ref))).toEqual([
      "pos_hmac",
    ]);
  });
});

describe("rows kept under other spellings before names were one", () => {
  test("move to the one name: the last value stored wins and still opens, the first purpose holds", async () => {
    const legacy = await createTestDatabase({ migrated: false });
    try {
      const migrations = await loadMigrations();
      await migrate(
        legacy.sql,
        migrations.filter((m) => m.version < 25),
      );
      const cipher = createSecretCipher(KEY);
      const seal = async (ref: string, value: string, updated: string) => {
        const sealed = await cipher.seal(ref, value);
        await legacy.sql`insert into secrets (ref, iv, ciphertext, updated_at)
          values (${ref}, ${sealed.iv}, ${sealed.ciphertext}, ${updated})`;
      };
      await seal("Legacy-Token", "older", "2026-01-01T00:00:00Z");
      await seal("legacy.token", "newer", "2026-02-01T00:00:00Z");
      await legacy.sql`insert into secret_purposes (ref, kind, declared_at) values
        ('LEGACY_TOKEN', 'provider_hmac_key', '2026-01-01T00:00:00Z'),
        ('legacy-token', 'provider_bearer_token', '2026-02-01T00:00:00Z'),
        ('GATEWAY_B_LIVE_WEBHOOK_SECRET', 'provider_bearer_token', '2026-01-01T00:00:00Z')`;
      await migrate(legacy.sql, migrations);

      const secrets = createSecretStore({
        sql: legacy.sql,
        keyMaterial: KEY,
        env: { SECRET_GATEWAY_B_LIVE_WEBHOOK_SECRET: "whsec_live" },
        changes: createInProcessChangeSignal(),
      });
      expect(await secrets.resolve("legacy_token", HMAC)).toBe("newer");
      await mismatch(secrets.resolve("Legacy-Token", BEARER));
      await mismatch(secrets.resolve("gateway_b_live_webhook_secret", BEARER));
      expect((await secrets.list()).map((item) => item.ref)).toEqual(["gateway_b_live_webhook_secret", "legacy_token"]);
      await secrets.put("legacy_token", "rotated", undefined);
      expect(await secrets.resolve("LEGACY.TOKEN", HMAC)).toBe("rotated");
    } finally {
      await legacy.drop();
    }
  });
});
