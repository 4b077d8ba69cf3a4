import { describe, expect, test } from "bun:test";
import { createSecretStore, environmentName } from "../../../adapters/secrets/secret-store.ts";
import { createInProcessChangeSignal } from "../../../adapters/signals/in-process-change-signal.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();
const KEY = "unit-test-secrets-key-0123456789-abcdef";
const store = (env: Record<string, string> = {}, keyMaterial = KEY) =>
  createSecretStore({ sql: db.current.sql, keyMaterial, env, changes: createInProcessChangeSignal() });

describe("secret store", () => {
  test("a stored value resolves, and only ciphertext reaches the database", async () => {
    await store().put("pos_token", "s3cr3t-value-123");
    expect(await store().resolve("pos_token")).toBe("s3cr3t-value-123");
    const [row] = await db.current.sql<
      { ciphertext: Uint8Array }[]
    >`select ciphertext from secrets where ref = 'pos_token'`;
    expect(Buffer.from(row?.ciphertext ?? []).toString("utf8")).not.toContain("s3cr3t");
  });

  test("the environment answers when nothing is stored; a stored value wins", async () => {
    const env = { SECRET_GATEWAY_A_API_KEY: "from-env" };
    expect(await store(env).resolve("gateway_a.api-key")).toBe("from-env");
    await store().put("gateway_a.api-key", "from-store");
    expect(await store(env).resolve("gateway_a.api-key")).toBe("from-store");
    expect(await store().resolve("never-set")).toBeUndefined();
  });

  test("environment names upper-case the reference and replace other characters", () => {
    expect(environmentName("provider_sim.token-1")).toBe("SECRET_PROVIDER_SIM_TOKEN_1");
  });

  test("a ciphertext moved to another reference does not open", async () => {
    await store().put("first", "one");
    await db.current.sql`
      insert into secrets (ref, iv, ciphertext) select 'second', iv, ciphertext from secrets where ref = 'first'`;
    await expect(store().resolve("second")).rejects.toThrow();
  });

  test("another key cannot open stored values", async () => {
    await store().put("rotated", "value");
    await expect(store({}, "another-key-0123456789-0123456789-abc").resolve("rotated")).rejects.toThrow();
  });

  test("a write through one store is seen by a store that had cached the old value", async () => {
    const changes = createInProcessChangeSignal();
    const a = createSecretStore({ sql: db.current.sql, keyMaterial: KEY, env: {}, changes });
    const b = createSecretStore({ sql: db.current.sql, keyMaterial: KEY, env: {}, changes });
    await a.put("shared", "v1");
    expect(await b.resolve("shared")).toBe("v1");
    await a.put("shared", "v2");
    expect(await b.resolve("shared")).toBe("v2");
  });

  test("list names references and sources, never values", async () => {
    await store().put("listed", "hidden-value");
    const items = await store({ SECRET_FROM_ENV: "env-value" }).list();
    expect(items).toContainEqual(expect.objectContaining({ ref: "listed", source: "stored" }));
    expect(items).toContainEqual({ ref: "from_env", source: "environment", updated_at: null });
    expect(JSON.stringify(items)).not.toContain("value");
  });
});
