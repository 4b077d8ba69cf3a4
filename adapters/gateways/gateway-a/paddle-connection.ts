import type { ConnectionReport, GatewaySettingsSource } from "../../../application/payments/ports.ts";
import { connectionFailure } from "../../../application/shared/connection-check.ts";
import type { GatewayEnvironment } from "../../../domain/payments/gateway-event.ts";
import { sendPaddle } from "./paddle-http.ts";

const PADDLE_WORDING = {
  notConfigured: "A secret the gateway settings refer to is not stored.",
  badCredentials: (status: number) => `The gateway refused the API key (HTTP ${status}).`,
  unreachable: "The gateway's base URL could not be reached.",
  timeout: "The gateway did not answer within the configured time-out.",
  unexpectedResponse: (status: number | undefined) =>
    status === undefined
      ? "The gateway's answer was not a Paddle API response."
      : `The gateway answered with HTTP ${status}.`,
};

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
    return { ok: false, environment, ...connectionFailure(error, PADDLE_WORDING) };
  }
}
