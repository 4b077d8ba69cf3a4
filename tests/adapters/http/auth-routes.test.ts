import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { createAuth } from "../../../adapters/http/auth-plugin.ts";
import { createErrorHandler } from "../../../adapters/http/error-handler.ts";
import { createLogger } from "../../../kit/logger.ts";
import { createTestApp, TEST_ISSUER, TEST_JWT_SECRET } from "../../support/app.ts";
import { useTestDatabase } from "../../support/database.ts";
import { call, expectProblemShape } from "../../support/http.ts";
import { decodeJwtPayload, forgeJwt, nowSeconds } from "../../support/jwt.ts";

const db = useTestDatabase();
const app = () => createTestApp(db.current.sql);

async function register(email = `c-${crypto.randomUUID()}@example.com`) {
  const response = await call(app(), "POST", "/api/auth/register", {
    body: { email, password: "correct horse", name: "Casey" },
  });
  expect(response.status).toBe(201);
  return response.body as { token: string; user: { id: string; email: string; role: string } };
}

describe("register, login, me", () => {
  test("register answers 201 with a token for a customer", async () => {
    const { token, user } = await register("New.Person@Example.com");
    expect(user).toMatchObject({ email: "new.person@example.com", role: "customer", name: "Casey" });
    const claims = decodeJwtPayload(token);
    expect(claims).toMatchObject({ sub: user.id, role: "customer", ver: 0, iss: TEST_ISSUER });
    expect(claims.exp).toBeGreaterThan(nowSeconds());
  });

  test("a second registration with the same email is a 409 problem", async () => {
    const email = `dup-${crypto.randomUUID()}@example.com`;
    await register(email);
    const again = await call(app(), "POST", "/api/auth/register", {
      body: { email: email.toUpperCase(), password: "another password", name: "Dup" },
    });
    expectProblemShape(again, 409, "EMAIL_ALREADY_REGISTERED");
  });

  test("a weak password is a 422 naming the field", async () => {
    const response = await call(app(), "POST", "/api/auth/register", {
      body: { email: "weak@example.com", password: "short", name: "Weak" },
    });
    expectProblemShape(response, 422, "VALIDATION_FAILED");
    expect(response.body.errors).toEqual([
      { path: "/password", code: "PASSWORD_TOO_SHORT", message: "must be at least 12 characters long" },
    ]);
  });

  test("a common password is a 422 naming the rule, however it is capitalized", async () => {
    const response = await call(app(), "POST", "/api/auth/register", {
      body: { email: "common@example.com", password: "QwertyUiop123", name: "Common" },
    });
    expectProblemShape(response, 422, "VALIDATION_FAILED");
    expect(response.body.errors).toEqual([
      { path: "/password", code: "PASSWORD_TOO_COMMON", message: expect.any(String) },
    ]);
  });

  test.each([
    ["a list", "x,eve@victim.example"],
    ["a display name", "Eve <eve@victim.example>"],
    ["a quoted local part", '"x,eve"@victim.example'],
    ["a header injection", "ada@example.com\r\nBcc: eve@victim.example"],
  ])("an email that is %s is a 422 on /email, and no account is made", async (_, email) => {
    const response = await call(app(), "POST", "/api/auth/register", {
      body: { email, password: "correct horse", name: "Eve" },
    });
    expectProblemShape(response, 422, "VALIDATION_FAILED");
    expect(response.body.errors).toEqual([{ path: "/email", code: "INVALID_EMAIL", message: expect.any(String) }]);
    const [made] = await db.current.sql`select count(*)::int as n from users where email like '%victim.example%'`;
    expect(made?.n).toBe(0);
  });

  test("a name with a line break or another control character is a 422 on /name", async () => {
    const response = await call(app(), "POST", "/api/auth/register", {
      body: { email: `n-${crypto.randomUUID()}@example.com`, password: "correct horse", name: "Ada\nShip 10 more" },
    });
    expectProblemShape(response, 422, "VALIDATION_FAILED");
    expect(response.body.errors).toEqual([{ path: "/name", code: "CONTROL_CHARACTERS", message: expect.any(String) }]);
  });

  test("login returns a token that /api/me accepts", async () => {
    const { user } = await register();
    const login = await call(app(), "POST", "/api/auth/login", {
      body: { email: user.email, password: "correct horse" },
    });
    expect(login.status).toBe(200);
    const me = await call(app(), "GET", "/api/me", { token: login.body.token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: user.id, email: user.email, role: "customer" });
  });

  test("a wrong password and an unknown email both get the same 401", async () => {
    const { user } = await register();
    const wrong = await call(app(), "POST", "/api/auth/login", { body: { email: user.email, password: "nope nope" } });
    const unknown = await call(app(), "POST", "/api/auth/login", {
      body: { email: "ghost@example.com", password: "nope nope" },
    });
    expectProblemShape(wrong, 401, "INVALID_CREDENTIALS");
    expect(unknown.body.detail).toBe(wrong.body.detail);
  });

  test("/api/me without a token is a 401 problem", async () => {
    expectProblemShape(await call(app(), "GET", "/api/me"), 401, "AUTHENTICATION_REQUIRED");
  });
});

describe("token verification refuses every forged or stale token", () => {
  const header = { alg: "HS256", typ: "JWT" };
  const claims = (sub: string, extra: Record<string, unknown> = {}) => ({
    sub,
    role: "customer",
    iss: TEST_ISSUER,
    iat: nowSeconds(),
    exp: nowSeconds() + 600,
    ...extra,
  });

  const cases: [string, (sub: string) => Promise<string>][] = [
    ["alg none", (sub) => forgeJwt({ alg: "none", typ: "JWT" }, claims(sub), undefined)],
    ["HS512 with the right secret", (sub) => forgeJwt({ alg: "HS512", typ: "JWT" }, claims(sub), TEST_JWT_SECRET)],
    [
      "expired beyond the 30 s tolerance",
      (sub) => forgeJwt(header, claims(sub, { exp: nowSeconds() - 31 }), TEST_JWT_SECRET),
    ],
    ["without exp", (sub) => forgeJwt(header, claims(sub, { exp: undefined }), TEST_JWT_SECRET)],
    ["with another issuer", (sub) => forgeJwt(header, claims(sub, { iss: "someone-else" }), TEST_JWT_SECRET)],
    ["signed with another secret", (sub) => forgeJwt(header, claims(sub), "another-secret-0123456789-abcdefghijkl")],
    [
      "with a tampered role",
      async (sub) => {
        const [h, , s] = (await forgeJwt(header, claims(sub), TEST_JWT_SECRET)).split(".");
        const tampered = Buffer.from(JSON.stringify(claims(sub, { role: "admin" }))).toString("base64url");
        return `${h}.${tampered}.${s}`;
      },
    ],
  ];

  test.each(cases)("%s gets 401", async (_name, makeToken) => {
    const { user } = await register();
    const response = await call(app(), "GET", "/api/me", { token: await makeToken(user.id) });
    expectProblemShape(response, 401, "AUTHENTICATION_REQUIRED");
  });

  test("a token expired within the 30 s tolerance is still accepted", async () => {
    const { user } = await register();
    const token = await forgeJwt(header, claims(user.id, { exp: nowSeconds() - 10 }), TEST_JWT_SECRET);
    expect((await call(app(), "GET", "/api/me", { token })).status).toBe(200);
  });
});

describe("role guards", () => {
  const accounts = new Map([
    ["a-customer", { role: "customer" as const, disabled: false, tokenVersion: 0 }],
    ["an-admin", { role: "admin" as const, disabled: false, tokenVersion: 0 }],
  ]);
  const guarded = () =>
    new Elysia()
      .use(createErrorHandler({ logger: createLogger({ level: "silent" }) }))
      .use(
        createAuth({
          secret: TEST_JWT_SECRET,
          issuer: TEST_ISSUER,
          ttlSeconds: 60,
          accounts: { find: async (id) => accounts.get(id) },
        }),
      )
      .get("/api/admin/probe", ({ principal }) => ({ role: principal.role }), { auth: "admin" })
      .get("/api/customer/probe", ({ principal }) => ({ role: principal.role }), { auth: "customer" });

  const token = (sub: string, role: string, extra: Record<string, unknown> = {}) =>
    forgeJwt(
      { alg: "HS256", typ: "JWT" },
      { sub, role, iss: TEST_ISSUER, exp: nowSeconds() + 60, ...extra },
      TEST_JWT_SECRET,
    );

  test("a customer token on an admin route gets 403", async () => {
    const response = await call(guarded(), "GET", "/api/admin/probe", { token: await token("a-customer", "customer") });
    expectProblemShape(response, 403, "FORBIDDEN_ROLE");
  });

  test("an admin token passes the admin guard", async () => {
    const response = await call(guarded(), "GET", "/api/admin/probe", { token: await token("an-admin", "admin") });
    expect(response).toMatchObject({ status: 200, body: { role: "admin" } });
  });

  test("the stored role decides, not the role claim of a genuine token", async () => {
    const promoted = await call(guarded(), "GET", "/api/admin/probe", { token: await token("an-admin", "customer") });
    expect(promoted).toMatchObject({ status: 200, body: { role: "admin" } });
    const claimed = await call(guarded(), "GET", "/api/admin/probe", { token: await token("a-customer", "admin") });
    expectProblemShape(claimed, 403, "FORBIDDEN_ROLE");
  });

  test("an unknown role is not a role at all: 401", async () => {
    const response = await call(guarded(), "GET", "/api/customer/probe", {
      token: await token("a-customer", "superuser"),
    });
    expectProblemShape(response, 401, "AUTHENTICATION_REQUIRED");
  });

  test.each([["1"], [-1], [1.5], [1]])("a token version of %p that is not the stored one gets 401", async (ver) => {
    const response = await call(guarded(), "GET", "/api/admin/probe", {
      token: await token("an-admin", "admin", { ver }),
    });
    expectProblemShape(response, 401, "AUTHENTICATION_REQUIRED");
  });

  test("a token for an account that does not exist gets 401", async () => {
    const response = await call(guarded(), "GET", "/api/admin/probe", { token: await token("nobody", "admin") });
    expectProblemShape(response, 401, "AUTHENTICATION_REQUIRED");
  });
});
