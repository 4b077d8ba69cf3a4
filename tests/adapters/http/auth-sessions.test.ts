import { beforeAll, describe, expect, test } from "bun:test";
import { openDatabase, type Sql } from "../../../adapters/postgres/database.ts";
import { ACCOUNT_STATE_MAX_AGE_MS } from "../../../application/identity/account-states.ts";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { hasRealPostgres, useTestDatabase } from "../../support/database.ts";
import { call, expectProblemShape } from "../../support/http.ts";

const db = useTestDatabase();
const env = { AUTH_RATE_LIMIT_BURST: "1000" };
const POLL_MS = 25;
let instanceA: ReturnType<typeof createTestMarketplace>;
let instanceB: ReturnType<typeof createTestMarketplace>;
/** Another connection, as another instance has: PGlite serves only one, so there it is the same. */
let other: { sql: Sql; close(): Promise<void> };
let admin = "";

beforeAll(async () => {
  other = hasRealPostgres
    ? await openDatabase({ url: db.current.url, dataDir: "", poolMax: 2 })
    : { sql: db.current.sql, close: async () => {} };
  instanceA = createTestMarketplace(db.current.sql, {}, { env });
  instanceB = createTestMarketplace(other.sql, {}, { env });
  admin = await tokenFor("admin");
});
db.onTeardown(async () => {
  await instanceA.close();
  await instanceB.close();
  await other.close();
});

const password = "correct horse";

async function register() {
  const email = `s-${crypto.randomUUID()}@example.com`;
  const response = await call(instanceA.app, "POST", "/api/auth/register", { body: { email, password, name: "Sam" } });
  expect(response.status).toBe(201);
  return response.body as { token: string; user: { id: string; email: string } };
}

const login = (email: string, pass = password) =>
  call(instanceA.app, "POST", "/api/auth/login", { body: { email, password: pass } });
const me = (token: string, app = instanceA.app) => call(app, "GET", "/api/me", { token });
const patchUser = (id: string, body: object, token = admin) =>
  call(instanceA.app, "PATCH", `/api/admin/users/${id}`, { token, body });

/**
 * Polls until `check` holds. Returns, in ms after `since`, when the last request that did not see
 * it was sent and when the first one that did: no request sent 5 s after the change may miss it.
 */
async function pollUntil(since: number, check: () => Promise<boolean>) {
  let lastMissed = 0;
  for (;;) {
    const sentAt = performance.now() - since;
    if (await check()) return { lastMissed, seen: sentAt };
    lastMissed = sentAt;
    if (sentAt > 2 * ACCOUNT_STATE_MAX_AGE_MS) return { lastMissed, seen: Number.POSITIVE_INFINITY };
    await Bun.sleep(POLL_MS);
  }
}

function expectWithinBound(what: string, delay: { lastMissed: number; seen: number }) {
  console.log(`${what}: last missed ${delay.lastMissed.toFixed(0)} ms after, first seen ${delay.seen.toFixed(0)} ms`);
  expect(delay.lastMissed).toBeLessThan(ACCOUNT_STATE_MAX_AGE_MS);
  expect(delay.seen).toBeLessThanOrEqual(ACCOUNT_STATE_MAX_AGE_MS + POLL_MS + 50);
}

describe("log out everywhere", () => {
  test("answers 204 and voids every earlier token, the one used included; a later login works", async () => {
    const { token, user } = await register();
    const second = (await login(user.email)).body.token as string;
    expect((await me(second)).status).toBe(200);

    const out = await call(instanceA.app, "POST", "/api/auth/logout-all", { token });
    expect(out.status).toBe(204);

    expectProblemShape(await me(token), 401, "AUTHENTICATION_REQUIRED");
    expectProblemShape(await me(second), 401, "AUTHENTICATION_REQUIRED");
    const fresh = (await login(user.email)).body.token as string;
    expect(await me(fresh)).toMatchObject({ status: 200, body: { id: user.id } });
  });

  test("needs a token", async () => {
    expectProblemShape(await call(instanceA.app, "POST", "/api/auth/logout-all"), 401, "AUTHENTICATION_REQUIRED");
  });

  test("on instance A is seen by instance B within 5 s", async () => {
    const { token } = await register();
    expect((await me(token, instanceB.app)).status).toBe(200);
    const loggedOutAt = performance.now();
    expect((await call(instanceA.app, "POST", "/api/auth/logout-all", { token })).status).toBe(204);
    const delay = await pollUntil(loggedOutAt, async () => (await me(token, instanceB.app)).status === 401);
    expectWithinBound("logout-all on A, seen on B", delay);
  }, 15_000);
});

describe("account state comes from the database", () => {
  test("a deleted account's token gets 401", async () => {
    const { token, user } = await register();
    await db.current.sql`delete from users where id = ${user.id}`;
    expectProblemShape(await me(token), 401, "AUTHENTICATION_REQUIRED");
  });

  test("a disabled account gets 401 ACCOUNT_DISABLED and cannot log in; enabled again, only new tokens work", async () => {
    const { token, user } = await register();
    expect((await me(token)).status).toBe(200);
    expect((await patchUser(user.id, { disabled: true })).body).toMatchObject({ id: user.id, disabled: true });

    expectProblemShape(await me(token), 401, "ACCOUNT_DISABLED");
    expectProblemShape(await login(user.email), 401, "ACCOUNT_DISABLED");
    expectProblemShape(await login(user.email, "wrong password"), 401, "INVALID_CREDENTIALS");

    expect((await patchUser(user.id, { disabled: false })).status).toBe(200);
    expectProblemShape(await me(token), 401, "AUTHENTICATION_REQUIRED");
    expect((await me((await login(user.email)).body.token)).status).toBe(200);
  });

  test("an admin demoted on this instance gets 403 on its next admin request", async () => {
    const id = crypto.randomUUID();
    const demoted = await tokenFor("admin", id);
    expect((await call(instanceA.app, "GET", "/api/admin/users", { token: demoted })).status).toBe(200);
    expect((await patchUser(id, { role: "customer" })).status).toBe(200);
    const refused = await call(instanceA.app, "GET", "/api/admin/users", { token: demoted });
    expectProblemShape(refused, 403, "FORBIDDEN_ROLE");
    expect(await me(demoted)).toMatchObject({ status: 200, body: { role: "customer" } });
  });

  test("an admin demoted straight in the database, which signals nothing, gets 403 within 5 s", async () => {
    const id = crypto.randomUUID();
    const demoted = await tokenFor("admin", id);
    const adminList = () => call(instanceA.app, "GET", "/api/admin/users?limit=1", { token: demoted });
    expect((await adminList()).status).toBe(200);
    // Measured from before the update is sent: the commit can only come later, so the bound holds from it too.
    const demotedAt = performance.now();
    await other.sql`update users set role = 'customer' where id = ${id}`;
    const delay = await pollUntil(demotedAt, async () => (await adminList()).status === 403);
    expectWithinBound("demotion through SQL", delay);
  }, 15_000);
});
