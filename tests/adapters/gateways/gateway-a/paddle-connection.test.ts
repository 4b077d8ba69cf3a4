import { describe, expect, test } from "bun:test";
import { delay, HttpResponse, http, passthrough } from "msw";
import { createPaddleGateway } from "../../../../adapters/gateways/gateway-a/paddle-client.ts";
import type { ConnectionReport, GatewaySettingsSource } from "../../../../application/payments/ports.ts";
import { CredentialsNotFound } from "../../../../application/shared/errors.ts";
import { freePort } from "../../../../scripts/lib/postgres-cluster.ts";
import { createStaticGatewaySettings } from "../../../support/fakes/static-gateway-settings.ts";
import { API_KEY, BASE, ok, paddleError, useMockPaddle } from "./paddle-fixtures.ts";

const server = useMockPaddle();

const LEAKY_DETAIL = `Key ${API_KEY} is not valid here`;

async function report(overrides: Parameters<typeof createStaticGatewaySettings>[0] = {}): Promise<ConnectionReport> {
  const result = await createPaddleGateway({ settings: createStaticGatewaySettings(overrides) }).testConnection();
  if (!result.ok) {
    expect(result.message).not.toContain(API_KEY);
    expect(result.message).not.toContain("not valid here");
    expect(result.message).not.toContain("<html>");
  }
  return result;
}

describe("testConnection", () => {
  test("a list from GET /event-types proves the key", async () => {
    let authorization = null as string | null;
    server.use(
      http.get(`${BASE}/event-types`, ({ request }) => {
        authorization = request.headers.get("authorization");
        return ok([{ name: "transaction.completed" }]);
      }),
    );
    const result = await report();
    expect(result).toMatchObject({ ok: true, environment: "sandbox" });
    expect(result.ok && result.latency_ms).toBeGreaterThanOrEqual(0);
    expect(authorization).toBe(`Bearer ${API_KEY}`);
  });

  test.each([401, 403])("HTTP %i is bad_credentials", async (status) => {
    server.use(http.get(`${BASE}/event-types`, () => paddleError(status, "authentication_malformed", LEAKY_DETAIL)));
    expect(await report()).toMatchObject({ ok: false, environment: "sandbox", reason: "bad_credentials" });
  });

  test("a refused connection is unreachable", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    server.use(http.all(`${closed}/*`, () => passthrough()));
    expect(await report({ gateway_a: { base_url: closed } })).toMatchObject({ ok: false, reason: "unreachable" });
  });

  test("an answer slower than timeout_seconds is a timeout", async () => {
    server.use(
      http.get(`${BASE}/event-types`, async () => {
        await delay(1500);
        return ok([]);
      }),
    );
    const started = performance.now();
    const result = await report({ gateway_a: { timeout_seconds: 1 } });
    expect(result).toMatchObject({ ok: false, reason: "timeout" });
    expect(performance.now() - started).toBeLessThan(1400);
  });

  test("a secret that is not stored is not_configured, with the environment still named", async () => {
    const missing: GatewaySettingsSource = {
      resolve: async () => {
        throw new CredentialsNotFound("gateway", "gateway_a.live.api_key");
      },
      activeEnvironment: async () => "live",
      taxBehavior: async () => "exclusive",
      webhookSecrets: async () => [],
    };
    expect(await createPaddleGateway({ settings: missing }).testConnection()).toMatchObject({
      ok: false,
      environment: "live",
      reason: "not_configured",
    });
  });

  test.each([
    ["a 404", () => paddleError(404, "not_found", LEAKY_DETAIL)],
    ["a 429", () => paddleError(429, "too_many_requests", LEAKY_DETAIL)],
    ["a 500", () => new HttpResponse(`<html>${API_KEY}</html>`, { status: 500 })],
    ["a 200 that is not JSON", () => new HttpResponse(`<html>${API_KEY}</html>`, { status: 200 })],
    ["a 200 without a list", () => ok({ name: "not a list" })],
  ])("%s is unexpected_response", async (_, answer) => {
    server.use(http.get(`${BASE}/event-types`, answer));
    expect(await report()).toMatchObject({ ok: false, environment: "sandbox", reason: "unexpected_response" });
  });
});
