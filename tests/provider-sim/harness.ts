import { createHmac } from "node:crypto";
import { createLogger } from "../../kit/logger.ts";
import type { components } from "../../openapi/generated/provider.ts";
import { loadProviderSimConfig } from "../../provider-sim/config.ts";
import { wireProviderSim } from "../../provider-sim/wiring.ts";
import { call, type JsonResponse } from "../support/http.ts";

export type OnboardRequest = components["schemas"]["OnboardRequest"];
export type Tenant = components["schemas"]["Tenant"];

export const TOKEN = "provider-sim-unit-token";
export const HMAC_SECRET = "provider-sim-unit-hmac-secret";
export const START = new Date("2026-01-31T10:00:00.000Z");
export const DAY_SECONDS = 86_400;

type CallOptions = { body?: unknown; rawBody?: BodyInit; token?: string; headers?: Record<string, string> };

/** The simulator wired as main wires it, with a frozen wall clock and controls on unless `env` says otherwise. */
export function createTestSim(env: Record<string, string> = {}, options: { mailboxCapacity?: number } = {}) {
  const config = loadProviderSimConfig({
    PROVIDER_SIM_TOKEN: TOKEN,
    PROVIDER_SIM_HMAC_SECRET: HMAC_SECRET,
    PROVIDER_SIM_CONTROL: "true",
    PROVIDER_SIM_PUBLIC_URL: "http://sim.test",
    ...env,
  });
  const sim = wireProviderSim({
    config,
    logger: createLogger({ level: "silent" }),
    wallTime: () => START.getTime(),
    ...options,
  });
  return {
    ...sim,
    config,
    /** An authenticated call (bearer); pass `token: undefined` for none. */
    call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<JsonResponse<T>> {
      return call<T>(sim.app, method, path, { token: TOKEN, ...options });
    },
    onboard(overrides: Partial<OnboardRequest> = {}) {
      return this.call<Tenant>("POST", "/api/marketplace/onboard", { body: anOnboardRequest(overrides) });
    },
  };
}

/** The `errors` of a problem+json response, whatever type the call expected on success. */
export function problemErrors(response: JsonResponse<unknown>): { path: string; message: string; code?: string }[] {
  return (response.body as { errors?: { path: string; message: string; code?: string }[] }).errors ?? [];
}

export function anOnboardRequest(overrides: Partial<OnboardRequest> = {}): OnboardRequest {
  return {
    order_id: "ord_1001",
    order_item_id: "item_1",
    product_ref: "pos-suite",
    plan: "standard",
    billing_interval: "monthly",
    customer: { id: "cust_1", email: "ada@example.com", name: "Ada Lovelace" },
    ...overrides,
  };
}

/** Headers of an `auth_mode: hmac` request, computed independently of the simulator's code. */
export function hmacHeaders(request: {
  method: string;
  target: string;
  body?: string;
  secret?: string;
  timestamp?: number;
}): Record<string, string> {
  const timestamp = request.timestamp ?? Math.floor(START.getTime() / 1000);
  const signature = createHmac("sha256", request.secret ?? HMAC_SECRET)
    .update(`${timestamp}.${request.method}.${request.target}.${request.body ?? ""}`)
    .digest("hex");
  return { "x-marketplace-timestamp": String(timestamp), "x-marketplace-signature": `v1=${signature}` };
}
