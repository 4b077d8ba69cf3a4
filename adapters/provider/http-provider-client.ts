import type { OnboardRequest, ProviderClient, ProviderTenant } from "../../application/provisioning/ports.ts";
import type { SecretStore } from "../../application/secrets/ports.ts";
import { CredentialsNotFound, UpstreamBadResponse } from "../../application/shared/errors.ts";
import { DEFAULT_PROVIDER_PATHS, type MultitenantSaasConfig } from "../../domain/catalog/drivers.ts";
import { providerPurpose } from "../../domain/secrets/secret-purpose.ts";
import type { OutboundFetch } from "../security/guarded-fetch.ts";
import { callUpstream, type RejectionReader } from "../upstream/upstream-http.ts";
import { checkManagementView, checkTenant } from "./provider-schemas.ts";
import { signProviderRequest } from "./provider-signature.ts";

interface Call {
  readonly method: "GET" | "POST";
  readonly baseUrl: string;
  readonly path: string;
  readonly body?: unknown;
  readonly query?: Readonly<Record<string, string>>;
}

/** The provider refuses with RFC 9457 problem+json. */
const readProblem: RejectionReader = (body) => {
  const problem = body as { code?: unknown; detail?: unknown };
  return {
    ...(typeof problem.code === "string" ? { code: problem.code } : {}),
    ...(typeof problem.detail === "string" ? { detail: problem.detail } : {}),
  };
};

/**
 * The provider contract over HTTP: `timeout_seconds` per call, and every body checked against the
 * contract before it is believed. Failures become typed `UpstreamError`s (see `callUpstream`).
 * `outbound` is the marketplace's connect-time address guard.
 */
export function createHttpProviderClient(deps: { secrets: SecretStore; outbound: OutboundFetch }): ProviderClient {
  const { outbound } = deps;

  async function send(config: MultitenantSaasConfig, call: Call): Promise<{ status: number; body: unknown }> {
    const secret = await deps.secrets.resolve(config.credentials_ref, providerPurpose(config.auth_mode));
    if (secret === undefined) throw new CredentialsNotFound("provider", config.credentials_ref);
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

    const response = await callUpstream(
      "provider",
      {
        method: call.method,
        url,
        headers,
        ...(call.body === undefined ? {} : { body: raw }),
        timeoutSeconds: config.timeout_seconds,
        outbound,
      },
      readProblem,
    );
    return { status: response.status, body: response.body };
  }

  async function tenantCall(
    config: MultitenantSaasConfig,
    call: Call,
  ): Promise<{ status: number; tenant: ProviderTenant }> {
    const { status, body } = await send(config, call);
    const checked = checkTenant(body);
    if (!checked.ok) throw new UpstreamBadResponse("provider", checked.reason);
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

    upgrade: (config, reference, plan, interval, paidUntil) =>
      post(config, DEFAULT_PROVIDER_PATHS.upgrade_endpoint, {
        external_reference_id: reference,
        plan,
        ...(interval ? { billing_interval: interval } : {}),
        ...(interval && paidUntil ? { current_period_end: paidUntil.toISOString() } : {}),
      }),

    async management(config, request) {
      const { body } = await send(config, {
        method: "GET",
        baseUrl: request.baseUrl,
        path: request.path,
        ...(request.query ? { query: request.query } : {}),
      });
      const checked = checkManagementView[request.view](body);
      if (!checked.ok) throw new UpstreamBadResponse("provider", checked.reason);
      return checked.value;
    },
  };
}
