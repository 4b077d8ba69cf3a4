import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { createRateLimiter, rateLimitGroup } from "../../../adapters/http/rate-limit.ts";
import { createTestMarketplace } from "../../support/app.ts";
import { useTestDatabase } from "../../support/database.ts";
import { call, expectProblemShape } from "../../support/http.ts";

const db = useTestDatabase();

function limitedApp(now: () => number, trustProxy = false) {
  return new Elysia()
    .use(createRateLimiter({ limits: { auth: { burst: 3, perSecond: 1 } }, groupOf: rateLimitGroup, trustProxy, now }))
    .post("/api/auth/login", () => ({ ok: true }))
    .get("/api/products", () => ({ ok: true }));
}

describe("rate limits", () => {
  test("a client past its burst gets 429 problem+json with Retry-After, and tokens come back with time", async () => {
    let now = 1_000_000;
    const app = limitedApp(() => now);
    const login = () => call(app, "POST", "/api/auth/login");
    for (let i = 0; i < 3; i++) expect((await login()).status).toBe(200);
    const refused = await login();
    expectProblemShape(refused, 429, "RATE_LIMITED");
    expect(refused.headers.get("retry-after")).toBe("1");
    now += 1000;
    expect((await login()).status).toBe(200);
    expect((await login()).status).toBe(429);
  });

  test("a trailing slash, which the router ignores, is counted on the same bucket", async () => {
    const app = limitedApp(() => 1_000_000);
    for (const path of ["/api/auth/login/", "/api/auth/login", "/api/auth/login/"]) {
      expect((await call(app, "POST", path)).status).toBe(200);
    }
    expect((await call(app, "POST", "/api/auth/login/")).status).toBe(429);
    expect((await call(app, "POST", "/api/auth/login")).status).toBe(429);
    expect(["/api/checkout/calculate/", "/api/checkout/create/"].map(rateLimitGroup)).toEqual([
      "checkout_calculate",
      "checkout",
    ]);
  });

  test("asking for a password reset and confirming one share sign-in's limit per client address", async () => {
    const app = new Elysia()
      .use(
        createRateLimiter({
          limits: { auth: { burst: 3, perSecond: 1 } },
          groupOf: rateLimitGroup,
          trustProxy: false,
          now: () => 0,
        }),
      )
      .post("/api/auth/login", () => ({ ok: true }))
      .post("/api/auth/password-reset", () => ({ ok: true }))
      .post("/api/auth/password-reset/confirm", () => ({ ok: true }));
    for (const path of ["/api/auth/password-reset", "/api/auth/password-reset/confirm", "/api/auth/login"]) {
      expect((await call(app, "POST", path)).status).toBe(200);
    }
    for (const path of ["/api/auth/password-reset", "/api/auth/password-reset/confirm/", "/api/auth/login"]) {
      expectProblemShape(await call(app, "POST", path), 429, "RATE_LIMITED");
    }
  });

  test("unlimited paths are not counted", async () => {
    const app = limitedApp(() => 0);
    for (let i = 0; i < 10; i++) expect((await call(app, "GET", "/api/products")).status).toBe(200);
  });

  test("behind a trusted proxy each forwarded client has its own bucket; untrusted, the header is ignored", async () => {
    const trusted = limitedApp(() => 0, true);
    const from = (ip: string) =>
      call(trusted, "POST", "/api/auth/login", { headers: { "x-forwarded-for": `${ip}, 10.0.0.1` } });
    for (let i = 0; i < 3; i++) expect((await from("203.0.113.7")).status).toBe(200);
    expect((await from("203.0.113.7")).status).toBe(429);
    expect((await from("198.51.100.9")).status).toBe(200);
    const untrusted = limitedApp(() => 0, false);
    for (let i = 0; i < 3; i++)
      await call(untrusted, "POST", "/api/auth/login", { headers: { "x-forwarded-for": `10.0.0.${i}` } });
    expect(
      (await call(untrusted, "POST", "/api/auth/login", { headers: { "x-forwarded-for": "10.0.0.99" } })).status,
    ).toBe(429);
  });

  test("the marketplace limits sign-in, license checks and webhooks by default", async () => {
    const app = createTestMarketplace(
      db.current.sql,
      {},
      { env: { AUTH_RATE_LIMIT_BURST: "2", WEBHOOK_RATE_LIMIT_BURST: "2", WEBHOOK_RATE_LIMIT_PER_SECOND: "1" } },
    ).app;
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push(
        (await call(app, "POST", "/api/auth/login", { body: { email: "a@b.co", password: "wrong pass" } })).status,
      );
    expect(statuses).toEqual([401, 401, 429]);
    const webhooks = [];
    for (let i = 0; i < 3; i++)
      webhooks.push((await call(app, "POST", "/api/webhooks/gateway_b", { rawBody: "{}" })).status);
    expect(webhooks[2]).toBe(429);
  });
});
