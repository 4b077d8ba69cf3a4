import { describe, expect, test } from "bun:test";
import { delay, HttpResponse, http, passthrough } from "msw";
import { createStripeGateway } from "../../../../adapters/gateways/gateway-b/stripe-client.ts";
import type { ConnectionReport } from "../../../../application/payments/ports.ts";
import { CredentialsNotFound } from "../../../../application/shared/errors.ts";
import { freePort } from "../../../../scripts/lib/postgres-cluster.ts";
import { createStaticGatewaySettings } from "../../../support/fakes/static-gateway-settings.ts";
import { mockStripeApi, stripeError } from "./stripe-api-mock.ts";

const { server, answer } = mockStripeApi();
const API_KEY = "sk_live_secret_0123456789abcdefghij";
const balance = { object: "balance", available: [{ amount: 0, currency: "usd" }], livemode: false };

function setup() {
  const settings = createStaticGatewaySettings({ gateway_b: { api_key: API_KEY } });
  return { settings, gateway: createStripeGateway({ settings }) };
}

function expectNoSecrets(report: ConnectionReport) {
  const text = JSON.stringify(report);
  expect(text).not.toContain(API_KEY);
  expect(text).not.toContain("Invalid API Key");
}

describe("testConnection", () => {
  test("a balance proves the key: ok with the environment and the latency", async () => {
    const requests = answer("get", "/v1/balance", balance);
    const report = await setup().gateway.testConnection();
    expect(report).toMatchObject({ ok: true, environment: "sandbox" });
    expect(report.ok && report.latency_ms).toBeGreaterThanOrEqual(0);
    expect(requests[0]?.headers.get("authorization")).toBe(`Bearer ${API_KEY}`);
  });

  test.each([401, 403])("HTTP %d is bad_credentials, without echoing the key or Stripe's message", async (status) => {
    answer("get", "/v1/balance", stripeError("invalid_request_error", `Invalid API Key provided: ${API_KEY}`), status);
    const report = await setup().gateway.testConnection();
    expect(report).toMatchObject({ ok: false, environment: "sandbox", reason: "bad_credentials" });
    expectNoSecrets(report);
  });

  test("a closed port is unreachable", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    server.use(http.all(`${closed}/*`, () => passthrough()));
    const { settings, gateway } = setup();
    settings.set("gateway_b", { base_url: closed, environment: "live" });
    const report = await gateway.testConnection();
    expect(report).toMatchObject({ ok: false, environment: "live", reason: "unreachable" });
    expectNoSecrets(report);
  });

  test("an answer slower than timeout_seconds is timeout", async () => {
    answer("get", "/v1/balance", async () => {
      await delay(1500);
      return HttpResponse.json(balance);
    });
    const { settings, gateway } = setup();
    settings.set("gateway_b", { timeout_seconds: 1 });
    const report = await gateway.testConnection();
    expect(report).toMatchObject({ ok: false, reason: "timeout" });
    expectNoSecrets(report);
  });

  test("a key that is not stored is not_configured, still naming the environment", async () => {
    const settings = createStaticGatewaySettings();
    const gateway = createStripeGateway({
      settings: {
        ...settings,
        resolve: async () => {
          throw new CredentialsNotFound("gateway", "gateway_b.sandbox.api_key");
        },
      },
    });
    expect(await gateway.testConnection()).toMatchObject({
      ok: false,
      environment: "sandbox",
      reason: "not_configured",
    });
  });

  test.each([
    ["a server error", () => HttpResponse.json(stripeError("api_error", "boom"), { status: 500 })],
    ["a body that is not a balance", () => HttpResponse.json({ object: "customer" })],
    ["a body that is not JSON", () => new HttpResponse("<html>", { status: 200 })],
    [
      "a refusal other than auth",
      () => HttpResponse.json(stripeError("invalid_request_error", API_KEY), { status: 400 }),
    ],
  ])("%s is unexpected_response", async (_, reply) => {
    answer("get", "/v1/balance", reply);
    const report = await setup().gateway.testConnection();
    expect(report).toMatchObject({ ok: false, reason: "unexpected_response" });
    expectNoSecrets(report);
  });
});
