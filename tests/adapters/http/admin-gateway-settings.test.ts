import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { delay, HttpResponse, http, passthrough } from "msw";
import { setupServer } from "msw/node";
import { gatewayPurpose } from "../../../domain/secrets/secret-purpose.ts";
import { freePort } from "../../../scripts/lib/postgres-cluster.ts";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { useTestDatabase } from "../../support/database.ts";
import { GATEWAY_TEST_ENV, GATEWAY_TEST_SECRETS, localhostOnly } from "../../support/gateway-env.ts";
import { call, expectProblemShape } from "../../support/http.ts";

const db = useTestDatabase();
const PADDLE = GATEWAY_TEST_ENV.GATEWAY_A_SANDBOX_BASE_URL;
const STRIPE = GATEWAY_TEST_ENV.GATEWAY_B_SANDBOX_BASE_URL;
const server = setupServer(
  http.get(`${PADDLE}/event-types`, ({ request }) =>
    request.headers.get("authorization") === `Bearer ${GATEWAY_TEST_ENV.GATEWAY_A_SANDBOX_API_KEY}`
      ? HttpResponse.json({ data: [], meta: { request_id: "r" } })
      : HttpResponse.json(
          { error: { type: "request_error", code: "authentication_malformed", detail: "bad key" } },
          { status: 403 },
        ),
  ),
  http.get(`${STRIPE}/v1/balance`, ({ request }) =>
    request.headers.get("authorization") === `Bearer ${GATEWAY_TEST_ENV.GATEWAY_B_SANDBOX_API_KEY}`
      ? HttpResponse.json({ object: "balance", available: [], pending: [] })
      : HttpResponse.json(
          { error: { type: "invalid_request_error", message: "Invalid API Key provided: sk_test_***" } },
          { status: 401 },
        ),
  ),
  http.get("https://slow.example.test/*", async () => {
    await delay(3000);
    return HttpResponse.json({});
  }),
);
let marketplace: ReturnType<typeof createTestMarketplace>;
let admin = "";

beforeAll(async () => {
  server.listen({ onUnhandledRequest: localhostOnly });
  marketplace = createTestMarketplace(db.current.sql, {}, { env: GATEWAY_TEST_ENV });
  admin = await tokenFor("admin");
});
afterAll(async () => {
  server.close();
  await marketplace.close();
});
const as = (method: string, path: string, body?: object) =>
  call(marketplace.app, method, path, { token: admin, ...(body ? { body } : {}) });

describe("gateway settings", () => {
  test("defaults come from the environment; references show whether they resolve, never a value", async () => {
    const settings = await as("GET", "/api/admin/gateway_b/settings");
    expect(settings.body).toMatchObject({
      gateway: "gateway_b",
      environment: "sandbox",
      sandbox: { base_url: STRIPE, api_key_ref: "gateway_b_sandbox_api_key", api_key_configured: true },
      live: { api_key_configured: false },
    });
    for (const secret of GATEWAY_TEST_SECRETS) expect(JSON.stringify(settings.body)).not.toContain(secret);
  });

  test("a value written through PUT is stored under its reference and never returned", async () => {
    const updated = await as("PUT", "/api/admin/gateway_b/settings", {
      live: { api_key: "sk_live_written_value_999" },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.live.api_key_configured).toBeTrue();
    expect(JSON.stringify(updated.body)).not.toContain("sk_live_written_value_999");
    expect(
      await marketplace.secrets.resolve(
        "gateway_b_live_api_key",
        gatewayPurpose("gateway_api_key", "gateway_b", "live"),
      ),
    ).toBe("sk_live_written_value_999");
  });

  test("bad URLs and references are 422 problems naming the field", async () => {
    const bad = await as("PUT", "/api/admin/gateway_a/settings", { sandbox: { base_url: "ftp://nope" } });
    expectProblemShape(bad, 422, "VALIDATION_FAILED");
    expect(bad.body.errors).toContainEqual(expect.objectContaining({ path: "/sandbox/base_url", code: "INVALID_URL" }));
  });
});

describe("test connection", () => {
  test.each(["gateway_a", "gateway_b"])("%s reports ok with the right key", async (gateway) => {
    const report = await as("POST", `/api/admin/${gateway}/test-connection`);
    expect(report.body).toMatchObject({ ok: true, environment: "sandbox" });
  });

  test.each([
    ["gateway_a", "api_key", "wrong-paddle-key-000"],
    ["gateway_b", "api_key", "sk_test_wrong_key_000"],
  ])("%s reports bad credentials without echoing secrets", async (gateway, field, value) => {
    await as("PUT", `/api/admin/${gateway}/settings`, { sandbox: { [field]: value } });
    const report = await as("POST", `/api/admin/${gateway}/test-connection`);
    expect(report.body).toMatchObject({ ok: false, reason: "bad_credentials" });
    const text = JSON.stringify(report.body);
    for (const secret of [value, ...GATEWAY_TEST_SECRETS]) expect(text).not.toContain(secret);
    expect(text).not.toContain("Invalid API Key");
  });

  test("an unreachable gateway and a slow one are reported as such", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    // msw must pass the request through for the real connection to be refused.
    server.use(http.all(`${closed}/*`, () => passthrough()));
    await as("PUT", "/api/admin/gateway_b/settings", { sandbox: { base_url: closed } });
    expect((await as("POST", "/api/admin/gateway_b/test-connection")).body).toMatchObject({
      ok: false,
      reason: "unreachable",
    });
    await as("PUT", "/api/admin/gateway_b/settings", {
      sandbox: { base_url: "https://slow.example.test" },
      timeout_seconds: 1,
    });
    expect((await as("POST", "/api/admin/gateway_b/test-connection")).body).toMatchObject({
      ok: false,
      reason: "timeout",
    });
  });

  test("a gateway without credentials is not_configured", async () => {
    await as("PUT", "/api/admin/gateway_a/settings", {
      environment: "live",
      live: { api_key_ref: "nothing_stored_here" },
    });
    expect((await as("POST", "/api/admin/gateway_a/test-connection")).body).toMatchObject({
      ok: false,
      environment: "live",
      reason: "not_configured",
    });
  });

  test("customers cannot see or change settings", async () => {
    const customer = await tokenFor("customer");
    const response = await call(marketplace.app, "GET", "/api/admin/gateway_a/settings", { token: customer });
    expectProblemShape(response, 403, "FORBIDDEN_ROLE");
  });
});
