import { createHmac } from "node:crypto";
import { createLogger } from "../../../kit/logger.ts";
import { loadProviderSimConfig } from "../../../provider-sim/config.ts";
import { wireProviderSim } from "../../../provider-sim/wiring.ts";
import { call, type JsonResponse } from "../../support/http.ts";
import { START, TOKEN } from "../harness.ts";

export const A_KEY = "pdl_sdbx_apikey_unit_0123456789";
export const A_SECRET = "pdl_ntfset_unit_secret_0123456789";
export const B_KEY = "sk_test_unit_0123456789";
export const B_SECRET = "whsec_unit_0123456789";
export const PUBLIC_URL = "http://sim.test";
export const NOW_UNIX = Math.floor(START.getTime() / 1000);

export interface ReceivedWebhook {
  readonly path: string;
  readonly headers: Headers;
  readonly raw: string;
  readonly body: any;
}

/** A stand-in marketplace on a free port that records every webhook and answers `statuses` in turn, then 200. */
export function startMarketplace(statuses: number[] = []) {
  const received: ReceivedWebhook[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const raw = await request.text();
      received.push({ path: new URL(request.url).pathname, headers: request.headers, raw, body: JSON.parse(raw) });
      return new Response(null, { status: statuses.shift() ?? 200 });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    received,
    /** Waits until no webhook has arrived for `quietMs` (background deliveries are not awaited by the API call). */
    async settle(quietMs = 150, timeoutMs = 5_000): Promise<ReceivedWebhook[]> {
      const deadline = Date.now() + timeoutMs;
      let seen = -1;
      while (seen !== received.length && Date.now() < deadline) {
        seen = received.length;
        await Bun.sleep(quietMs);
      }
      return received;
    },
    /** The webhooks of `type` so far (Stripe `type` or Paddle `event_type`). */
    ofType: (type: string) => received.filter((webhook) => (webhook.body.type ?? webhook.body.event_type) === type),
    /** Waits until `count` webhooks arrived (background deliveries are not awaited by the API call). */
    async waitFor(count: number, timeoutMs = 3_000): Promise<ReceivedWebhook[]> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} webhooks, got ${received.length}`);
        await Bun.sleep(10);
      }
      return received;
    },
    stop: () => server.stop(true),
  };
}

type Options = { body?: unknown; rawBody?: BodyInit; token?: string; headers?: Record<string, string> };

/**
 * The simulator with both sandboxes mounted, controls on, a frozen wall clock (unless `wallTime`
 * says otherwise: the Paddle SDK checks signatures against the real time) and fast retries.
 */
export function createGatewaySim(env: Record<string, string> = {}, wallTime: () => number = () => START.getTime()) {
  const config = loadProviderSimConfig({
    PROVIDER_SIM_TOKEN: TOKEN,
    PROVIDER_SIM_CONTROL: "true",
    PROVIDER_SIM_PUBLIC_URL: PUBLIC_URL,
    PROVIDER_SIM_MARKETPLACE_URL: "http://127.0.0.1:9",
    GATEWAY_A_SANDBOX_API_KEY: A_KEY,
    GATEWAY_A_SANDBOX_WEBHOOK_SECRET: A_SECRET,
    GATEWAY_B_SANDBOX_API_KEY: B_KEY,
    GATEWAY_B_SANDBOX_WEBHOOK_SECRET: B_SECRET,
    ...env,
  });
  const sim = wireProviderSim({
    config,
    logger: createLogger({ level: "silent" }),
    wallTime,
    webhookRetryDelayMs: 20,
  });
  return {
    ...sim,
    config,
    /** A gateway_a call with its key unless `token` says otherwise; `body` goes as JSON. */
    a<T = any>(method: string, path: string, options: Options = {}): Promise<JsonResponse<T>> {
      return call<T>(sim.app, method, `/gateway_a${path}`, { token: A_KEY, ...options });
    },
    /** A gateway_b call with its key; `form` goes form-encoded. */
    b<T = any>(
      method: string,
      path: string,
      form?: Record<string, string | number>,
      token: string | undefined = B_KEY,
    ) {
      const rawBody = form
        ? new URLSearchParams(Object.entries(form).map(([k, v]) => [k, String(v)])).toString()
        : undefined;
      const headers: Record<string, string> = form ? { "content-type": "application/x-www-form-urlencoded" } : {};
      return call<T>(sim.app, method, `/gateway_b/v1${path}`, { ...(token ? { token } : {}), rawBody, headers });
    },
    /** An unauthenticated simulator call (hosted pages and controls). */
    plain<T = any>(method: string, path: string, options: Options = {}): Promise<JsonResponse<T>> {
      return call<T>(sim.app, method, path, options);
    },
  };
}

export type GatewaySim = ReturnType<typeof createGatewaySim>;

/** Checks `Paddle-Signature: ts=..;h1=..` as the wire doc defines it, independently of the simulator. */
export function paddleSignatureValid(header: string | null, raw: string, secret = A_SECRET): boolean {
  const parts = Object.fromEntries((header ?? "").split(";").map((part) => part.split("=") as [string, string]));
  const expected = createHmac("sha256", secret).update(`${parts.ts}:${raw}`).digest("hex");
  return parts.ts !== undefined && parts.h1 === expected;
}

/** Checks `Stripe-Signature: t=..,v1=..` as the wire doc defines it, independently of the simulator. */
export function stripeSignatureValid(header: string | null, raw: string, secret = B_SECRET): boolean {
  const parts = Object.fromEntries((header ?? "").split(",").map((part) => part.split("=") as [string, string]));
  const expected = createHmac("sha256", secret).update(`${parts.t}.${raw}`).digest("hex");
  return parts.t !== undefined && parts.v1 === expected;
}
