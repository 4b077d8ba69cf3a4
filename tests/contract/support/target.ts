/**
 * The provider a contract test file runs against, resolved once per file:
 * `PROVIDER_BASE_URL` (+ `PROVIDER_TOKEN`, optional `PROVIDER_HMAC_SECRET`) when set, else the bundled
 * simulator started as a real process and stopped after the file.
 *
 * Every response of a path the YAML declares goes through `expectConforms` inside `call`, so a test cannot
 * receive a non-conforming answer without failing.
 */
import { afterAll } from "bun:test";
import type { components } from "../../../openapi/generated/provider.ts";
import type { RunningService } from "../../support/process.ts";
import { SIM_HMAC_SECRET, SIM_TOKEN, startProviderSim } from "../../support/provider-sim.ts";
import { expectConforms, matchPathTemplate } from "./schema.ts";

export type Schemas = components["schemas"];
export type Tenant = Schemas["Tenant"];
export type OnboardRequest = Schemas["OnboardRequest"];
export type Plan = Schemas["Plan"];
export type Problem = Schemas["Problem"];

export interface HmacOptions {
  /** Unix seconds; defaults to now. */
  readonly timestamp?: number;
  /** Signs with this secret instead of the known one. */
  readonly secret?: string;
  /** Signs this body while sending the real one (tampering). */
  readonly signedBody?: string;
  /** Further `v1=` values placed before the real one (secret rotation). */
  readonly extraSignatures?: readonly string[];
}

export type Auth = "bearer" | "hmac" | "none" | { readonly bearer: string } | { readonly hmac: HmacOptions };

export interface CallOptions {
  /** Sent as JSON. */
  readonly body?: unknown;
  /** Sent verbatim with `content-type: application/json`. */
  readonly rawBody?: string;
  readonly auth?: Auth;
  readonly headers?: Record<string, string>;
}

export interface ContractResponse<T = any> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
  readonly text: string;
}

export interface Fault {
  readonly route: string;
  readonly mode: "error" | "rate_limit" | "delay" | "hang" | "garbage";
  readonly count: number;
  readonly status?: number;
  readonly delay_ms?: number;
  readonly retry_after_s?: number;
}

export interface ContractTarget {
  readonly url: string;
  /** `bundled simulator` or the `PROVIDER_BASE_URL`. */
  readonly description: string;
  readonly bundled: boolean;
  /** `GET /__sim` answered 200 with `controls: true`. */
  readonly hasControls: boolean;
  readonly hmacSecret: string | undefined;
  /** The plan catalog as listed when the target was resolved (empty when that failed). */
  readonly plans: readonly Plan[];
  call<T = any>(method: string, path: string, options?: CallOptions): Promise<ContractResponse<T>>;
  /** `POST /__sim/clock`; only when `hasControls`. */
  advanceClock(seconds: number): Promise<void>;
  /** `POST /__sim/faults`; only when `hasControls`. */
  injectFault(fault: Fault): Promise<void>;
  /** A plan id of the catalog; fails the test when the provider lists too few plans. */
  planId(index?: number): string;
  /** A fresh onboarding request with unique `qa-<uuid>` order references. */
  onboardRequest(overrides?: Partial<OnboardRequest>): OnboardRequest;
  /** Onboards a fresh order and expects 201. */
  onboard(overrides?: Partial<OnboardRequest>): Promise<{ request: OnboardRequest; tenant: Tenant }>;
}

const encoder = new TextEncoder();

function hex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** `v1` signature of the YAML: lowercase hex HMAC-SHA256 of `<timestamp>.<METHOD>.<path+query>.<raw body>`. */
export async function hmacSignature(
  secret: string,
  timestamp: number,
  method: string,
  pathAndQuery: string,
  rawBody: string,
): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const message = `${timestamp}.${method.toUpperCase()}.${pathAndQuery}.${rawBody}`;
  return hex(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
}

export function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}

/** A unique reference for shared providers. */
export function uniqueId(prefix = "qa"): string {
  return `${prefix}-${crypto.randomUUID()}`;
}

const REQUEST_TIMEOUT_MS = 15_000;

/**
 * Resolves the target for the calling test file (top-level `await useContractTarget()`), registering the
 * simulator's shutdown with `afterAll`.
 */
export async function useContractTarget(): Promise<ContractTarget> {
  const baseUrl = process.env.PROVIDER_BASE_URL?.trim();
  let sim: RunningService | undefined;
  let url: string;
  let token: string | undefined;
  let hmacSecret: string | undefined;
  if (baseUrl) {
    url = baseUrl.replace(/\/+$/, "");
    token = process.env.PROVIDER_TOKEN || undefined;
    hmacSecret = process.env.PROVIDER_HMAC_SECRET || undefined;
    if (!token && !hmacSecret)
      throw new Error("PROVIDER_BASE_URL is set but neither PROVIDER_TOKEN nor PROVIDER_HMAC_SECRET is");
  } else {
    sim = await startProviderSim();
    afterAll(async () => {
      await sim?.stop();
    });
    url = sim.url;
    token = SIM_TOKEN;
    hmacSecret = SIM_HMAC_SECRET;
  }
  const defaultAuth: Auth = token ? "bearer" : "hmac";

  async function send(method: string, path: string, options: CallOptions = {}): Promise<ContractResponse> {
    const target = new URL(path, `${url}/`);
    const pathAndQuery = `${target.pathname}${target.search}`;
    const headers: Record<string, string> = { accept: "application/json, application/problem+json" };
    let rawBody = "";
    if (options.rawBody !== undefined) rawBody = options.rawBody;
    else if (options.body !== undefined) rawBody = JSON.stringify(options.body);
    if (rawBody !== "") headers["content-type"] = "application/json";
    const auth = options.auth ?? defaultAuth;
    if (auth === "bearer") {
      if (!token) throw new Error("no bearer token known for this target (PROVIDER_TOKEN)");
      headers.authorization = `Bearer ${token}`;
    } else if (typeof auth === "object" && "bearer" in auth) {
      headers.authorization = `Bearer ${auth.bearer}`;
    } else if (auth === "hmac" || (typeof auth === "object" && "hmac" in auth)) {
      const hmac: HmacOptions = auth === "hmac" ? {} : auth.hmac;
      const secret = hmac.secret ?? hmacSecret;
      if (!secret) throw new Error("no hmac secret known for this target (PROVIDER_HMAC_SECRET)");
      const timestamp = hmac.timestamp ?? unixNow();
      const signed = hmac.signedBody ?? rawBody;
      const signature = await hmacSignature(secret, timestamp, method, pathAndQuery, signed);
      headers["x-marketplace-timestamp"] = String(timestamp);
      headers["x-marketplace-signature"] = [...(hmac.extraSignatures ?? []), signature]
        .map((value) => `v1=${value}`)
        .join(",");
    }
    Object.assign(headers, options.headers);
    const response = await fetch(target, {
      method,
      headers,
      body: rawBody === "" ? undefined : rawBody,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    return { status: response.status, headers: response.headers, body, text };
  }

  async function call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<ContractResponse<T>> {
    const response = await send(method, path, options);
    if (!path.startsWith("/__sim")) {
      const template = matchPathTemplate(method, path);
      if (!template) throw new Error(`${method} ${path} is not an operation of openapi/provider.yaml`);
      expectConforms(method, template, response);
    }
    return response;
  }

  try {
    await send("GET", "/api/marketplace/admin/plans");
  } catch (error) {
    throw new Error(`the provider at ${url} is unreachable: ${(error as Error).message}`);
  }

  let hasControls = false;
  try {
    const response = await send("GET", "/__sim");
    hasControls = response.status === 200 && (response.body as { controls?: unknown })?.controls === true;
  } catch {
    hasControls = false;
  }

  let plans: Plan[] = [];
  let plansProblem = "";
  try {
    const response = await call("GET", "/api/marketplace/admin/plans");
    if (response.status === 200) plans = response.body.items;
    else plansProblem = ` (listing them answered ${response.status})`;
  } catch (error) {
    plansProblem = ` (listing them failed: ${(error as Error).message})`;
  }

  async function control(path: string, body: unknown): Promise<void> {
    if (!hasControls) throw new Error(`${path} needs /__sim controls, which this target does not expose`);
    const response = await send("POST", path, { body });
    if (response.status < 200 || response.status > 299)
      throw new Error(`POST ${path} answered ${response.status}: ${response.text.slice(0, 300)}`);
  }

  function planId(index = 0): string {
    const plan = plans[index];
    if (!plan)
      throw new Error(
        `the provider lists ${plans.length} plan(s) on /api/marketplace/admin/plans${plansProblem}; need ${index + 1}`,
      );
    return plan.id;
  }

  function onboardRequest(overrides: Partial<OnboardRequest> = {}): OnboardRequest {
    const id = crypto.randomUUID();
    return {
      order_id: `qa-${id}`,
      order_item_id: `qa-item-${id}`,
      product_ref: process.env.PROVIDER_PRODUCT_REF || "qa-contract-product",
      plan: planId(0),
      customer: { id: `qa-customer-${id}`, email: `qa-${id.slice(0, 8)}@example.com`, name: "QA Contract Customer" },
      ...overrides,
    };
  }

  const description = sim ? "bundled simulator" : url;
  console.log(
    `contract target: ${description} (${url}); /__sim controls: ${hasControls ? "used" : "not available"}; hmac secret: ${hmacSecret ? "known" : "unknown"}; plans: ${plans.length}`,
  );

  return {
    url,
    description,
    bundled: sim !== undefined,
    hasControls,
    hmacSecret,
    plans,
    call,
    advanceClock: (seconds) => control("/__sim/clock", { advance_seconds: seconds }),
    injectFault: (fault) => control("/__sim/faults", fault),
    planId,
    onboardRequest,
    async onboard(overrides = {}) {
      const request = onboardRequest(overrides);
      const response = await call<Tenant>("POST", "/api/marketplace/onboard", { body: request });
      if (response.status !== 201)
        throw new Error(`onboarding ${request.order_id} answered ${response.status}, expected 201: ${response.text}`);
      return { request, tenant: response.body };
    },
  };
}

/** The external identifiers and workspace URL, which never change for a tenant. */
export function identity(tenant: Tenant) {
  return {
    external_reference_id: tenant.external_reference_id,
    external_tenant_id: tenant.external_tenant_id,
    external_customer_id: tenant.external_customer_id,
    external_user_id: tenant.external_user_id,
    external_subscription_id: tenant.external_subscription_id,
    workspace_url: tenant.workspace_url,
  };
}

/** Prints why a rule is skipped (the report script picks the line up) and returns whether to skip. */
export function skipRule(rule: number, skip: boolean, reason: string): boolean {
  if (skip) console.log(`contract rule ${rule} skipped: ${reason}`);
  return skip;
}

export const STATUS_PATH = "/api/marketplace/status";
export const ADMIN = "/api/marketplace/admin";

export function statusPath(reference: string): string {
  return `${STATUS_PATH}/${encodeURIComponent(reference)}`;
}

export function adminTenantPath(tenant: string, suffix = ""): string {
  return `${ADMIN}/tenants/${encodeURIComponent(tenant)}${suffix}`;
}
