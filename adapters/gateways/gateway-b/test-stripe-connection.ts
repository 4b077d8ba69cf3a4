import type { ConnectionReport, GatewaySettingsSource } from "../../../application/payments/ports.ts";
import {
  CredentialsNotFound,
  UpstreamRejected,
  UpstreamTimeout,
  UpstreamUnreachable,
} from "../../../application/shared/upstream-errors.ts";
import type { GatewayEnvironment } from "../../../domain/payments/gateway-event.ts";
import { stripeRequest } from "./stripe-http.ts";
import { checkBalance } from "./stripe-responses.ts";

type Failure = Extract<ConnectionReport, { ok: false }>;

/** Fixed wording: an upstream's message or a key must never reach an admin screen from here. */
function failure(environment: GatewayEnvironment | null, error: unknown): Failure {
  const report = (reason: Failure["reason"], message: string): Failure => ({ ok: false, environment, reason, message });
  const where = environment === null ? "" : ` (${environment})`;
  if (error instanceof CredentialsNotFound)
    return report("not_configured", `No API key is stored for gateway_b${where}.`);
  if (error instanceof UpstreamRejected && (error.status === 401 || error.status === 403)) {
    return report("bad_credentials", `Stripe refused the API key${where} with HTTP ${error.status}.`);
  }
  if (error instanceof UpstreamUnreachable) return report("unreachable", `Stripe could not be reached${where}.`);
  if (error instanceof UpstreamTimeout) return report("timeout", `Stripe did not answer in time${where}.`);
  return report("unexpected_response", `Stripe answered unexpectedly${where}.`);
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
