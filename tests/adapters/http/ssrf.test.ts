import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { aLicenseProduct, aPointOfSaleProduct } from "../../support/builders/products.ts";
import { countingListener } from "../../support/counting-listener.ts";
import { useTestDatabase } from "../../support/database.ts";
import { call, expectProblemShape } from "../../support/http.ts";
import type { RunningService } from "../../support/process.ts";
import { SIM_TOKEN, startProviderSim } from "../../support/provider-sim.ts";

const db = useTestDatabase();

const tenantUnknown = () =>
  Response.json(
    { type: "about:blank", title: "Not Found", status: 404, code: "TENANT_NOT_FOUND" },
    { status: 404, headers: { "content-type": "application/problem+json" } },
  );

let trap: ReturnType<typeof countingListener>;
let guarded: ReturnType<typeof createTestMarketplace>;
let open: ReturnType<typeof createTestMarketplace>;
let sim: RunningService;
let admin = "";

beforeAll(async () => {
  trap = countingListener(tenantUnknown);
  sim = await startProviderSim();
  guarded = createTestMarketplace(
    db.current.sql,
    {},
    {
      env: {
        ALLOW_PRIVATE_PROVIDER_URLS: "false",
        GATEWAY_A_SANDBOX_BASE_URL: `${trap.url}/gateway_a`,
        GATEWAY_B_SANDBOX_BASE_URL: `http://localhost:${trap.port}/gateway_b`,
        SECRET_SIM_TOKEN: SIM_TOKEN,
      },
    },
  );
  open = createTestMarketplace(db.current.sql, {}, { env: { SECRET_SIM_TOKEN: SIM_TOKEN } });
  admin = await tokenFor("admin");
});

afterAll(async () => {
  await guarded.close();
  await open.close();
  await sim.stop();
  trap.server.stop(true);
});

function saasConfig(overrides: Record<string, unknown> = {}) {
  return {
    ...aPointOfSaleProduct().fulfillment_config,
    credentials_ref: "sim_token",
    timeout_seconds: 2,
    ...overrides,
  };
}

const testConnection = (app: ReturnType<typeof createTestMarketplace>, body: unknown) =>
  call(app.app, "POST", "/api/admin/fulfillment/test-connection", { token: admin, body });

const refused = (port: number) => [
  `http://127.0.0.1:${port}`,
  `http://localhost:${port}`,
  `http://[::1]:${port}`,
  `http://[::ffff:127.0.0.1]:${port}`,
  `http://2130706433:${port}`,
  "http://169.254.169.254/latest/meta-data",
  "http://10.0.0.8",
  "http://172.16.4.4",
  "http://192.168.1.1",
];

describe("SSRF: admin-supplied addresses are refused before any connection", () => {
  test("fulfillment test-connection refuses loopback, link-local, private and names resolving to them", async () => {
    for (const base_url of refused(trap.port)) {
      const response = await testConnection(guarded, {
        fulfillment_driver: "multitenant_saas",
        fulfillment_config: saasConfig({ base_url }),
      });
      expect({ base_url, status: response.status }).toEqual({ base_url, status: 422 });
      expectProblemShape(response, 422, "URL_NOT_ALLOWED");
      expect(response.body.errors[0].path).toBe("/fulfillment_config/base_url");
    }
    expect(trap.hits).toEqual([]);
  });

  test("non-http(s) schemes are refused", async () => {
    for (const base_url of [`gopher://127.0.0.1:${trap.port}`, "file:///etc/passwd", `ftp://127.0.0.1:${trap.port}`]) {
      const response = await testConnection(guarded, {
        fulfillment_driver: "multitenant_saas",
        fulfillment_config: saasConfig({ base_url }),
      });
      expect(response.status).toBe(422);
      expect(response.headers.get("content-type")).toContain("application/problem+json");
    }
    expect(trap.hits).toEqual([]);
  });

  test("a product whose provider or management address is private cannot be saved", async () => {
    const provider = await call(guarded.app, "POST", "/api/admin/products", {
      token: admin,
      body: aPointOfSaleProduct({ fulfillment_config: saasConfig({ base_url: `http://[::1]:${trap.port}` }) }),
    });
    expectProblemShape(provider, 422, "URL_NOT_ALLOWED");
    const management = await call(guarded.app, "POST", "/api/admin/products", {
      token: admin,
      body: aPointOfSaleProduct({
        fulfillment_config: saasConfig({
          base_url: "https://93.184.216.34",
          management: { enabled: true, base_url: "http://169.254.169.254" },
        }),
      }),
    });
    expectProblemShape(management, 422, "URL_NOT_ALLOWED");
    expect(management.body.errors).toEqual([
      expect.objectContaining({ path: "/fulfillment_config/management/base_url", code: "URL_NOT_ALLOWED" }),
    ]);
    const artifact = await call(guarded.app, "POST", "/api/admin/products", {
      token: admin,
      body: aLicenseProduct({
        fulfillment_config: {
          ...aLicenseProduct().fulfillment_config,
          artifact_source: `http://localhost:${trap.port}/a`,
        },
      }),
    });
    expectProblemShape(artifact, 422, "URL_NOT_ALLOWED");
    const publicAddress = await call(guarded.app, "POST", "/api/admin/products", {
      token: admin,
      body: aPointOfSaleProduct({
        fulfillment_config: saasConfig({
          base_url: "https://93.184.216.34",
          management: { enabled: true, base_url: "https://93.184.216.34" },
        }),
      }),
    });
    expect(publicAddress.body.errors ?? []).toEqual([]);
    expect(publicAddress.status).toBe(201);
    expect(trap.hits).toEqual([]);
  });

  test("gateway settings refuse a private base URL, and gateway test-connection refuses to call one", async () => {
    const settings = await call(guarded.app, "PUT", "/api/admin/gateway_b/settings", {
      token: admin,
      body: { sandbox: { base_url: "http://169.254.169.254/v1" } },
    });
    expectProblemShape(settings, 422, "URL_NOT_ALLOWED");
    expect(settings.body.errors[0].path).toBe("/sandbox/base_url");
    for (const gateway of ["gateway_a", "gateway_b"]) {
      const response = await call(guarded.app, "POST", `/api/admin/${gateway}/test-connection`, { token: admin });
      expectProblemShape(response, 422, "URL_NOT_ALLOWED");
    }
    expect(trap.hits).toEqual([]);
  });
});

describe("fulfillment test-connection when private addresses are allowed", () => {
  test("reaches the provider simulator and reports the latency", async () => {
    const response = await testConnection(open, {
      fulfillment_driver: "multitenant_saas",
      fulfillment_config: saasConfig({ base_url: sim.url }),
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ok: true, latency_ms: expect.any(Number) });
  });

  test("a saved product is tested by its id", async () => {
    const created = await call(open.app, "POST", "/api/admin/products", {
      token: admin,
      body: aPointOfSaleProduct({ fulfillment_config: saasConfig({ base_url: sim.url }) }),
    });
    const response = await testConnection(open, { product_id: created.body.id });
    expect(response.body).toMatchObject({ ok: true });
    expectProblemShape(await testConnection(open, { product_id: crypto.randomUUID() }), 404, "PRODUCT_NOT_FOUND");
    const license = await call(open.app, "POST", "/api/admin/products", { token: admin, body: aLicenseProduct() });
    const notSaas = await testConnection(open, { product_id: license.body.id });
    expectProblemShape(notSaas, 422, "VALIDATION_FAILED");
    expect(notSaas.body.errors[0].code).toBe("NOT_TESTABLE");
  });

  test("a wrong key, a missing secret, a refused connection and a hang are told apart", async () => {
    const config = (overrides: Record<string, unknown>) => ({
      fulfillment_driver: "multitenant_saas",
      fulfillment_config: saasConfig({ base_url: sim.url, ...overrides }),
    });
    const hang = countingListener(() => new Promise<Response>(() => {}));
    const closed = countingListener(tenantUnknown);
    closed.server.stop(true);
    try {
      const wrongKey = await call(open.app, "POST", "/api/admin/fulfillment/test-connection", {
        token: admin,
        body: config({ credentials_ref: "other_token" }),
      });
      expect(wrongKey.body).toMatchObject({ ok: false, reason: "not_configured" });
      const marketplace = createTestMarketplace(db.current.sql, {}, { env: { SECRET_SIM_TOKEN: "not-the-token" } });
      const rejected = await testConnection(marketplace, config({}));
      await marketplace.close();
      expect(rejected.body).toMatchObject({ ok: false, reason: "bad_credentials" });
      expect((await testConnection(open, config({ base_url: closed.url }))).body).toMatchObject({
        ok: false,
        reason: "unreachable",
      });
      expect((await testConnection(open, config({ base_url: hang.url, timeout_seconds: 1 }))).body).toMatchObject({
        ok: false,
        reason: "timeout",
      });
    } finally {
      hang.server.stop(true);
    }
  });

  test("redirects are not followed and the remote body is never echoed", async () => {
    const target = countingListener(tenantUnknown);
    const redirector = countingListener(() => Response.redirect(`${target.url}/api/marketplace/status/x`, 302));
    const leaky = countingListener(() => new Response("internal-secret-banner stack trace", { status: 500 }));
    try {
      const config = (base_url: string) => ({
        fulfillment_driver: "multitenant_saas",
        fulfillment_config: saasConfig({ base_url }),
      });
      const redirected = await testConnection(open, config(redirector.url));
      expect(redirected.body).toMatchObject({ ok: false, reason: "unexpected_response" });
      expect(redirector.hits.length).toBe(1);
      expect(target.hits).toEqual([]);
      const leaked = await testConnection(open, config(leaky.url));
      expect(leaked.body).toMatchObject({ ok: false, reason: "unexpected_response" });
      expect(JSON.stringify(leaked.body)).not.toContain("internal-secret-banner");
    } finally {
      for (const server of [target, redirector, leaky]) server.server.stop(true);
    }
  });
});
