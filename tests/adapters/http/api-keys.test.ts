import { beforeAll, describe, expect, test } from "bun:test";
import { openDatabase, type Sql } from "../../../adapters/postgres/database.ts";
import { API_KEY_STATE_MAX_AGE_MS } from "../../../application/identity/api-keys.ts";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { aPointOfSaleProduct } from "../../support/builders/products.ts";
import { hasRealPostgres, useTestDatabase } from "../../support/database.ts";
import { eventually } from "../../support/e2e.ts";
import { call, expectProblemShape } from "../../support/http.ts";

const db = useTestDatabase();
const POLL_MS = 25;
let instanceA: ReturnType<typeof createTestMarketplace>;
let instanceB: ReturnType<typeof createTestMarketplace>;
/** Another connection, as another instance has: PGlite serves only one, so there it is the same. */
let other: { sql: Sql; close(): Promise<void> };
let admin = "";
const adminId = crypto.randomUUID();

beforeAll(async () => {
  other = hasRealPostgres
    ? await openDatabase({ url: db.current.url, dataDir: "", poolMax: 2 })
    : { sql: db.current.sql, close: async () => {} };
  instanceA = createTestMarketplace(db.current.sql, {});
  instanceB = createTestMarketplace(other.sql, {});
  admin = await tokenFor("admin", adminId);
});
db.onTeardown(async () => {
  await instanceA.close();
  await instanceB.close();
  await other.close();
});

async function createKey(body: object, app = instanceA.app) {
  const created = await call(app, "POST", "/api/admin/api-keys", { token: admin, body });
  expect(created.status).toBe(201);
  return created.body as { id: string; secret: string; prefix: string; name: string };
}

describe("API keys", () => {
  test("the secret is answered once, mk_ and 43 random characters; only its hash and prefix are stored", async () => {
    const key = await createKey({ name: "ERP", scopes: ["orders:read"] });
    expect(key.secret).toMatch(/^mk_[A-Za-z0-9_-]{43}$/);
    expect(key.prefix).toBe(key.secret.slice(0, 11));
    const listed = await call(instanceA.app, "GET", "/api/admin/api-keys", { token: admin });
    const entry = listed.body.items.find((item: { id: string }) => item.id === key.id);
    expect(entry).toMatchObject({ name: "ERP", scopes: ["orders:read"], last_used_at: null, revoked_at: null });
    expect(JSON.stringify(listed.body)).not.toContain(key.secret);
    const [row] = await db.current.sql<
      { secret_hash: string }[]
    >`select secret_hash from api_keys where id = ${key.id}`;
    expect(row?.secret_hash).toBe(new Bun.CryptoHasher("sha256").update(key.secret).digest("hex"));
    const [leak] = await db.current.sql<{ n: number }[]>`
      select count(*)::int as n from api_keys where secret_hash = ${key.secret} or name like ${`%${key.secret}%`}`;
    expect(leak?.n).toBe(0);
  });

  test("a key calls admin routes within its scopes; outside them it is told the scope it lacks", async () => {
    const key = await createKey({ name: "Storefront", scopes: ["catalog:read"] });
    const listed = await call(instanceA.app, "GET", "/api/admin/products", { token: key.secret });
    expect(listed.status).toBe(200);
    const write = await call(instanceA.app, "POST", "/api/admin/products", {
      token: key.secret,
      body: aPointOfSaleProduct(),
    });
    expectProblemShape(write, 403, "API_KEY_SCOPE_MISSING");
    expect(write.body.missing_scope).toBe("catalog:write");
    const orders = await call(instanceA.app, "GET", "/api/admin/orders", { token: key.secret });
    expect([orders.status, orders.body.missing_scope]).toEqual([403, "orders:read"]);
  });

  test("keys, accounts' access, secrets and customer routes are refused to every key", async () => {
    const key = await createKey({ name: "Everything", scopes: ["catalog:write", "customers:read", "orders:write"] });
    for (const [method, path] of [
      ["GET", "/api/admin/api-keys"],
      ["POST", "/api/admin/api-keys"],
      ["GET", "/api/admin/secrets"],
      ["GET", "/api/admin/gateway_b/settings"],
      ["GET", "/api/admin/audit-log"],
      ["PATCH", `/api/admin/users/${adminId}`],
      ["GET", "/api/me"],
      ["GET", "/api/dashboard"],
    ] as const) {
      const refused = await call(instanceA.app, method, path, { token: key.secret, body: {} });
      expectProblemShape(refused, 403, "API_KEY_NOT_ALLOWED");
    }
    expect((await call(instanceA.app, "GET", "/api/admin/users", { token: key.secret })).status).toBe(200);
  });

  test("the audit log names the key, by id and name, as the actor of what it did", async () => {
    const key = await createKey({ name: "Catalog sync", scopes: ["catalog:write"] });
    const created = await call(instanceA.app, "POST", "/api/admin/products", {
      token: key.secret,
      body: aPointOfSaleProduct(),
    });
    expect(created.status).toBe(201);
    const log = await call(instanceA.app, "GET", `/api/admin/audit-log?target_id=${created.body.id}`, { token: admin });
    expect(log.body.items[0]).toMatchObject({
      actor_id: key.id,
      actor_kind: "api_key",
      actor_name: "Catalog sync",
      action: "product.create",
    });
    const own = await call(instanceA.app, "GET", `/api/admin/audit-log?target_id=${key.id}`, { token: admin });
    expect(own.body.items[0]).toMatchObject({
      actor_id: adminId,
      actor_kind: "user",
      actor_name: null,
      action: "api_key.create",
    });
  });

  test("a use is noted in last_used_at", async () => {
    const key = await createKey({ name: "Reporter", scopes: ["orders:read"] });
    expect((await call(instanceA.app, "GET", "/api/admin/orders", { token: key.secret })).status).toBe(200);
    // Noted beside the request, not before its answer.
    const usedAt = await eventually(
      async () => {
        const [row] = await db.current.sql<{ last_used_at: Date | null }[]>`
          select last_used_at from api_keys where id = ${key.id}`;
        return row?.last_used_at ?? undefined;
      },
      5000,
      "the key's last use",
    );
    expect(usedAt).toBeInstanceOf(Date);
  });

  test("an expired key and an unknown one are 401 like a bad token; a past expiry cannot be set", async () => {
    const past = await call(instanceA.app, "POST", "/api/admin/api-keys", {
      token: admin,
      body: { name: "Late", scopes: ["orders:read"], expires_at: "2020-01-01T00:00:00Z" },
    });
    expect(past.status).toBe(422);
    expect(past.body.errors).toEqual([{ path: "/expires_at", code: "INVALID_EXPIRY", message: expect.any(String) }]);
    const key = await createKey({
      name: "Soon",
      scopes: ["orders:read"],
      expires_at: new Date(Date.now() + 60_000).toISOString(),
    });
    await db.current.sql`update api_keys set expires_at = now() - interval '1 second' where id = ${key.id}`;
    // A fresh instance: the first has what it read of the key cached for up to 5 s.
    const fresh = createTestMarketplace(db.current.sql, {});
    try {
      expectProblemShape(
        await call(fresh.app, "GET", "/api/admin/orders", { token: key.secret }),
        401,
        "AUTHENTICATION_REQUIRED",
      );
    } finally {
      await fresh.close();
    }
    const unknown = `mk_${"A".repeat(43)}`;
    expectProblemShape(
      await call(instanceA.app, "GET", "/api/admin/orders", { token: unknown }),
      401,
      "AUTHENTICATION_REQUIRED",
    );
  });

  test("bad names and scopes are 422s naming each field", async () => {
    const refused = await call(instanceA.app, "POST", "/api/admin/api-keys", {
      token: admin,
      body: { name: " ", scopes: ["orders:read", "orders:read", "everything"] },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((error: { path: string; code: string }) => [error.path, error.code])).toEqual([
      ["/name", "INVALID_NAME"],
      ["/scopes/1", "DUPLICATE_SCOPE"],
      ["/scopes/2", "UNKNOWN_SCOPE"],
    ]);
    const none = await call(instanceA.app, "POST", "/api/admin/api-keys", {
      token: admin,
      body: { name: "x", scopes: [] },
    });
    expect(none.body.errors).toEqual([{ path: "/scopes", code: "NO_SCOPES", message: expect.any(String) }]);
  });

  test("revoked on instance A, refused on instance B within 5 s; revoking again is 204; an unknown id is 404", async () => {
    const key = await createKey({ name: "Revoked", scopes: ["orders:read"] });
    expect((await call(instanceB.app, "GET", "/api/admin/orders", { token: key.secret })).status).toBe(200);
    const revokedAt = performance.now();
    expect((await call(instanceA.app, "DELETE", `/api/admin/api-keys/${key.id}`, { token: admin })).status).toBe(204);
    expectProblemShape(
      await call(instanceA.app, "GET", "/api/admin/orders", { token: key.secret }),
      401,
      "AUTHENTICATION_REQUIRED",
    );
    let lastMissed = 0;
    let seen = Number.POSITIVE_INFINITY;
    for (;;) {
      const sentAt = performance.now() - revokedAt;
      if ((await call(instanceB.app, "GET", "/api/admin/orders", { token: key.secret })).status === 401) {
        seen = sentAt;
        break;
      }
      lastMissed = sentAt;
      if (sentAt > 2 * API_KEY_STATE_MAX_AGE_MS) break;
      await Bun.sleep(POLL_MS);
    }
    console.log(
      `API key revoked on A: last missed on B ${lastMissed.toFixed(0)} ms after, refused ${seen.toFixed(0)} ms`,
    );
    expect(lastMissed).toBeLessThan(API_KEY_STATE_MAX_AGE_MS);
    expect(seen).toBeLessThanOrEqual(API_KEY_STATE_MAX_AGE_MS + POLL_MS + 50);
    expect((await call(instanceA.app, "DELETE", `/api/admin/api-keys/${key.id}`, { token: admin })).status).toBe(204);
    const log = await call(instanceA.app, "GET", `/api/admin/audit-log?target_id=${key.id}&action=api_key.revoke`, {
      token: admin,
    });
    expect(log.body.items).toHaveLength(1);
    expectProblemShape(
      await call(instanceA.app, "DELETE", `/api/admin/api-keys/${crypto.randomUUID()}`, { token: admin }),
      404,
      "API_KEY_NOT_FOUND",
    );
  }, 15_000);
});
