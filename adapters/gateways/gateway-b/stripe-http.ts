import type { GatewayRuntimeSettings } from "../../../application/payments/ports.ts";
import { isRecord } from "../../../domain/shared/is-record.ts";
import { outboundFor } from "../../upstream/gateway-outbound.ts";
import { callUpstream, type RejectionReader } from "../../upstream/upstream-http.ts";
import { encodeForm, type FormFields } from "./form-encoding.ts";

export interface StripeCall {
  readonly method: "GET" | "POST" | "DELETE";
  /** From `/v1`, with any query string already encoded. */
  readonly path: string;
  readonly form?: FormFields;
  /** Stripe's `Idempotency-Key`: a POST repeated with it is answered with the first one's result. */
  readonly idempotencyKey?: string;
}

/** Stripe refuses with `{error: {type, code?, message}}`; the code is the more specific name when present. */
export const readStripeError: RejectionReader = (body) => {
  const error = isRecord(body) && isRecord(body.error) ? body.error : {};
  const code = typeof error.code === "string" ? error.code : typeof error.type === "string" ? error.type : undefined;
  return {
    ...(code ? { code } : {}),
    ...(typeof error.message === "string" ? { detail: error.message } : {}),
  };
};

/**
 * The API version every request asks for, so Stripe answers in the shapes the adapter reads
 * (docs/gateway-wire-formats.md): the one the `stripe` package of this project pins.
 */
export const STRIPE_API_VERSION = "2026-10-28.endive";

/** One call to the Stripe API of the active environment; returns the parsed JSON body, unchecked. */
export async function stripeRequest(settings: GatewayRuntimeSettings, call: StripeCall): Promise<unknown> {
  const base = settings.base_url.endsWith("/") ? settings.base_url : `${settings.base_url}/`;
  const headers: Record<string, string> = {
    accept: "application/json",
    authorization: `Bearer ${settings.api_key}`,
    "stripe-version": STRIPE_API_VERSION,
  };
  const body = call.form === undefined ? undefined : encodeForm(call.form);
  if (body !== undefined) headers["content-type"] = "application/x-www-form-urlencoded";
  if (call.idempotencyKey !== undefined) headers["idempotency-key"] = call.idempotencyKey;
  const response = await callUpstream(
    "gateway",
    {
      method: call.method,
      url: new URL(call.path.replace(/^\//, ""), base),
      headers,
      ...(body === undefined ? {} : { body }),
      timeoutSeconds: settings.timeout_seconds,
      outbound: outboundFor(settings),
      name: "gateway_b",
    },
    readStripeError,
  );
  return response.body;
}
