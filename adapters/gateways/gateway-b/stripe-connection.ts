import type { ConnectionReport, GatewaySettingsSource } from "../../../application/payments/ports.ts";
import { connectionFailure } from "../../../application/shared/connection-check.ts";
import type { GatewayEnvironment } from "../../../domain/payments/gateway-event.ts";
import { stripeRequest } from "./stripe-http.ts";
import { checkBalance } from "./stripe-responses.ts";

/** Stripe's failures in our words, naming the environment that was tried. */
function failure(environment: GatewayEnvironment | null, error: unknown): ConnectionReport {
  const where = environment === null ? "" : ` (${environment})`;
  const found = connectionFailure(error, {
    notConfigured: `No API key is stored for gateway_b${where}.`,
    badCredentials: (status) => `Stripe refused the API key${where} with HTTP ${status}.`,
    unreachable: `Stripe could not be reached${where}.`,
    timeout: `Stripe did not answer in time${where}.`,
    unexpectedResponse: () => `Stripe answered unexpectedly${where}.`,
  });
  return { ok: false, environment, ...found };
}

/** `GET /v1/balance` needs nothing but a valid secret key, so any balance proves the connection. */
export async function testStripeConnection(settings: GatewaySettingsSource): Promise<ConnectionReport> {
  let environment: GatewayEnvironment | null = null;
  try {
    environment = await settings.activeEnvironment("gateway_b");
    const resolved = await settings.resolve("gateway_b");
    environment = resolved.environment;
    const started = performance.now();
    checkBalance(await stripeRequest(resolved, { method: "GET", path: "/v1/balance" }));
    return { ok: true, environment, latency_ms: Math.round(performance.now() - started) };
  } catch (error) {
    return failure(environment, error);
  }
}
