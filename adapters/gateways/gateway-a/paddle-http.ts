import type { GatewayRuntimeSettings } from "../../../application/payments/ports.ts";
import { UpstreamBadResponse } from "../../../application/shared/errors.ts";
import { isRecord } from "../../../domain/shared/is-record.ts";
import { outboundFor } from "../../upstream/gateway-outbound.ts";
import { callUpstream, type RejectionReader } from "../../upstream/upstream-http.ts";

export interface PaddleCall {
  readonly method: "GET" | "POST" | "PATCH";
  /** A path under the base URL, or a full URL Paddle handed us (a next page). */
  readonly target: string | URL;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/** Every Paddle response: `{ data, meta }`. */
export interface PaddleEnvelope {
  readonly data: unknown;
  readonly meta: unknown;
}

/** Paddle refuses with `{ error: { type, code, detail } }`. */
export const readPaddleError: RejectionReader = (body) => {
  const error = isRecord(body) && isRecord(body.error) ? body.error : {};
  return {
    ...(typeof error.code === "string" ? { code: error.code } : {}),
    ...(typeof error.detail === "string" ? { detail: error.detail } : {}),
  };
};

function baseOf(settings: GatewayRuntimeSettings): URL {
  return new URL(settings.base_url.endsWith("/") ? settings.base_url : `${settings.base_url}/`);
}

function urlFor(settings: GatewayRuntimeSettings, target: string | URL): URL {
  const base = baseOf(settings);
  if (typeof target === "string") return new URL(target.replace(/^\//, ""), base);
  // The API key goes with the request: never to a URL outside the configured API, whatever a body says.
  if (target.origin !== base.origin || !target.pathname.startsWith(base.pathname)) {
    throw new UpstreamBadResponse("gateway", "a link points outside the configured base URL");
  }
  return target;
}

/** One call to Paddle with the settings of the moment; failures are typed by `callUpstream`. */
export async function sendPaddle(settings: GatewayRuntimeSettings, call: PaddleCall): Promise<PaddleEnvelope> {
  const url = urlFor(settings, call.target);
  for (const [key, value] of Object.entries(call.query ?? {})) url.searchParams.set(key, value);
  const headers: Record<string, string> = {
    accept: "application/json",
    authorization: `Bearer ${settings.api_key}`,
  };
  if (call.body !== undefined) headers["content-type"] = "application/json";
  const response = await callUpstream(
    "gateway",
    {
      method: call.method,
      url,
      headers,
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
      timeoutSeconds: settings.timeout_seconds,
      outbound: outboundFor(settings),
      name: "gateway_a",
    },
    readPaddleError,
  );
  const body = response.body;
  if (!isRecord(body) || !("data" in body)) throw new UpstreamBadResponse("gateway", "no data envelope");
  return { data: body.data, meta: body.meta };
}
