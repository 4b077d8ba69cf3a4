import type { ConnectionReport, GatewaySettingsSource } from "../../../application/payments/ports.ts";
import {
  CredentialsNotFound,
  UpstreamRejected,
  UpstreamTimeout,
  UpstreamUnreachable,
} from "../../../application/shared/upstream-errors.ts";
import type { GatewayEnvironment } from "../../../domain/payments/gateway-event.ts";
import { sendPaddle } from "./paddle-http.ts";

type Failure = Extract<ConnectionReport, { ok: false }>;

/**
 * Our own words for every failure: an admin sees the message, and neither the API key nor
 * anything the far end wrote (which may echo it) belongs there.
 */
function failureOf(error: unknown): Pick<Failure, "reason" | "message"> {
  if (error instanceof CredentialsNotFound) {
    return { reason: "not_configured", message: "A secret the gateway settings refer to is not stored." };
  }
  if (error instanceof UpstreamRejected && (error.status === 401 || error.status === 403)) {
    return { reason: "bad_credentials", message: `The gateway refused the API key (HTTP ${error.status}).` };
  }
  if (error instanceof UpstreamUnreachable) {
    return { reason: "unreachable", message: "The gateway's base URL could not be reached." };
  }
  if (error instanceof UpstreamTimeout) {
    return { reason: "timeout", message: "The gateway did not answer within the configured time-out." };
  }
  if (error instanceof UpstreamRejected) {
    return { reason: "unexpected_response", message: `The gateway answered with HTTP ${error.status}.` };
  }
  return { reason: "unexpected_response", message: "The gateway's answer was not a Paddle API response." };
}

/** `GET /event-types` with the active environment's key: any list proves the key and the URL. */
export async function testPaddleConnection(source: GatewaySettingsSource): Promise<ConnectionReport> {
  let environment: GatewayEnvironment | null = null;
  try {
    const settings = await source.resolve("gateway_a");
    environment = settings.environment;
    const started = performance.now();
    const { data } = await sendPaddle(settings, { method: "GET", target: "/event-types" });
    if (!Array.isArray(data)) throw new TypeError("event types are not a list");
    return { ok: true, environment, latency_ms: Math.round(performance.now() - started) };
  } catch (error) {
    environment ??= await source.activeEnvironment("gateway_a").catch(() => null);
    return { ok: false, environment, ...failureOf(error) };
  }
}
