import { UpstreamBadResponse } from "../../application/shared/errors.ts";
import { httpUrlOrNull } from "../../domain/shared/http-url.ts";
import type { OutboundFetch } from "../security/guarded-fetch.ts";
import { callUpstream } from "../upstream/upstream-http.ts";

export const PROVISIONER_TIMEOUT_SECONDS = 30;

export interface ProvisionRequest {
  readonly installation_id: string;
  readonly domain: string;
  readonly server_profile: string;
  readonly resource_limits_profile: string;
}

const readRejection = (body: unknown) => {
  const problem = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  return {
    ...(typeof problem.code === "string" ? { code: problem.code } : {}),
    ...(typeof problem.detail === "string" ? { detail: problem.detail } : {}),
  };
};

/**
 * Asks a configured provisioner endpoint to set up an installation; it answers `{ url }` once the
 * installation is reachable. The installation id makes a repeated call (a rerun after a crash)
 * recognisable as the same request. Failures are `UpstreamError`s: 5xx, time-outs and bad bodies
 * are transient, so the job retries with backoff. `outbound` is the marketplace's address guard.
 */
export async function provisionInstallation(
  provisionerUrl: string,
  request: ProvisionRequest,
  outbound: OutboundFetch,
): Promise<string> {
  const response = await callUpstream(
    "provider",
    {
      method: "POST",
      url: new URL(provisionerUrl),
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(request),
      timeoutSeconds: PROVISIONER_TIMEOUT_SECONDS,
      outbound,
      name: "provisioner",
    },
    readRejection,
  );
  const body = response.body as { url?: unknown } | null;
  const url = httpUrlOrNull(body?.url);
  if (!url) throw new UpstreamBadResponse("provider", "the provisioner's answer has no http(s) url");
  return url;
}
