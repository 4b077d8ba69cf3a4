import ky, { TimeoutError } from "ky";
import type { OnboardRequest, ProviderClient, ProviderTenant } from "../../application/provisioning/ports.ts";
import {
  CredentialsNotFound,
  ProviderBadResponse,
  ProviderRateLimited,
  ProviderRejected,
  ProviderServerError,
  ProviderTimeout,
  ProviderUnreachable,
} from "../../application/provisioning/provider-errors.ts";
import type { SecretStore } from "../../application/secrets/ports.ts";
import { DEFAULT_PROVIDER_PATHS, type MultitenantSaasConfig } from "../../domain/catalog/drivers.ts";
import { checkManagementView, checkTenant } from "./provider-schemas.ts";
import { signProviderRequest } from "./provider-signature.ts";

interface Call {
  readonly method: "GET" | "POST";
  readonly baseUrl: string;
  readonly path: string;
  readonly body?: unknown;
  readonly query?: Readonly<Record<string, string>>;
}

/** Seconds or an HTTP date, as RFC 9110 allows. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

async function problemOf(response: Response): Promise<{ code?: string; detail?: string }> {
  try {
    const body = (await response.json()) as { code?: unknown; detail?: unknown };
    return {
      ...(typeof body.code === "string" ? { code: body.code.slice(0, 100) } : {}),
      ...(typeof body.detail === "string" ? { detail: body.detail.slice(0, 200) } : {}),
    };
  } catch {
    return {};
  }
}

/**
 * The provider contract over HTTP with ky: no retries here (the job system retries with
 * backoff), `timeout_seconds` per call, no redirects followed, and every body checked against
 * the contract before it is believed. Failures become typed `ProviderError`s.
 */
export function createHttpProviderClient(deps: { secrets: SecretStore }): ProviderClient {
  async function send(config: MultitenantSaasConfig, call: Call): Promise<{ status: number; body: unknown }> {
    const secret = await deps.secrets.resolve(config.credentials_ref);
    if (secret === undefined) throw new CredentialsNotFound(config.credentials_ref);
    const url = new URL(call.path.replace(/^\//, ""), call.baseUrl.endsWith("/") ? call.baseUrl : `${call.baseUrl}/`);
    for (const [key, value] of Object.entries(call.query ?? {})) url.searchParams.set(key, value);
    const raw = call.body === undefined ? "" : JSON.stringify(call.body);
    const headers: Record<string, string> = { accept: "application/json" };
    if (call.body !== undefined) headers["content-type"] = "application/json";
    if (config.auth_mode === "hmac") {
      Object.assign(headers, await signProviderRequest(secret, call.method, url.pathname + url.search, raw));
    } else {
      headers.authorization = `Bearer ${secret}`;
    }

    let response: Response;
    try {
      response = await ky(url, {
        method: call.method,
        headers,
        ...(call.body === undefined ? {} : { body: raw }),
        timeout: config.timeout_seconds * 1000,
        retry: 0,
        throwHttpErrors: false,
        redirect: "manual",
      });
    } catch (error) {
      if (error instanceof TimeoutError) throw new ProviderTimeout(config.timeout_seconds);
      const code = (error as { code?: string }).code;
      throw new ProviderUnreachable(code ?? (error instanceof Error ? error.message : "connection failed"));
    }

    const { status } = response;
    if (status === 429) throw new ProviderRateLimited(parseRetryAfter(response.headers.get("retry-after")));
    if (status === 408 || status >= 500) throw new ProviderServerError(status);
    if (status >= 300) {
      const problem = status >= 400 ? await problemOf(response) : { detail: "unexpected redirect" };
      throw new ProviderRejected(status, problem.code, problem.detail);
    }
    const text = await response.text();
    try {
      return { status, body: JSON.parse(text) };
    } catch {
      throw new ProviderBadResponse("not JSON");
    }
  }

  async function tenantCall(
    config: MultitenantSaasConfig,
    call: Call,
  ): Promise<{ status: number; tenant: ProviderTenant }> {
    const { status, body } = await send(config, call);
    const checked = checkTenant(body);
    if (!checked.ok) throw new ProviderBadResponse(checked.reason);
    return { status, tenant: checked.value };
  }

  const post = (config: MultitenantSaasConfig, path: string, body: unknown) =>
    tenantCall(config, { method: "POST", baseUrl: config.base_url, path, body }).then((r) => r.tenant);

  return {
    async onboard(config, request: OnboardRequest) {
      const { status, tenant } = await tenantCall(config, {
        method: "POST",
        baseUrl: config.base_url,
        path: config.onboard_endpoint,
        body: request,
      });
      return { tenant, created: status === 201 };
    },

    status(config, reference) {
      if (config.status_endpoint.includes("{external_reference}")) {
        const path = config.status_endpoint.replace("{external_reference}", encodeURIComponent(reference));
        return tenantCall(config, { method: "GET", baseUrl: config.base_url, path }).then((r) => r.tenant);
      }
      return post(config, config.status_endpoint, { external_reference_id: reference });
    },

    suspend: (config, reference, reason) =>
      post(config, config.suspend_endpoint ?? DEFAULT_PROVIDER_PATHS.suspend_endpoint, {
        external_reference_id: reference,
        ...(reason ? { reason } : {}),
      }),

    cancel: (config, reference, reason) =>
      post(config, config.cancel_endpoint ?? DEFAULT_PROVIDER_PATHS.cancel_endpoint, {
        external_reference_id: reference,
        ...(reason ? { reason } : {}),
      }),

    upgrade: (config, reference, plan) =>
      post(config, DEFAULT_PROVIDER_PATHS.upgrade_endpoint, { external_reference_id: reference, plan }),

    async management(config, request) {
      const { body } = await send(config, {
        method: "GET",
        baseUrl: request.baseUrl,
        path: request.path,
        ...(request.query ? { query: request.query } : {}),
      });
      const checked = checkManagementView[request.view](body);
      if (!checked.ok) throw new ProviderBadResponse(checked.reason);
      return checked.value;
    },
  };
}
