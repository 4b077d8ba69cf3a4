import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createHttpProviderClient } from "../../../adapters/provider/http-provider-client.ts";
import { connectToAnyAddress } from "../../../adapters/security/guarded-fetch.ts";
import type { OnboardRequest } from "../../../application/provisioning/ports.ts";
import {
  CredentialsNotFound,
  UpstreamBadResponse,
  type UpstreamError,
  UpstreamRateLimited,
  UpstreamRejected,
  UpstreamServerError,
  UpstreamTimeout,
  UpstreamUnreachable,
} from "../../../application/shared/errors.ts";
import type { MultitenantSaasConfig } from "../../../domain/catalog/drivers.ts";
import { freePort } from "../../../scripts/lib/postgres-cluster.ts";
import { createInMemorySecretStore } from "../../support/fakes/in-memory-secret-store.ts";
import type { RunningService } from "../../support/process.ts";
import { SIM_HMAC_SECRET, SIM_TOKEN, startProviderSim } from "../../support/provider-sim.ts";

let sim: RunningService;
beforeAll(async () => {
  sim = await startProviderSim();
});
afterAll(async () => {
  await sim.stop();
});
beforeEach(async () => {
  await fetch(`${sim.url}/__sim/reset`, { method: "POST" });
});

const secrets = createInMemorySecretStore({ sim_token: SIM_TOKEN, sim_hmac: SIM_HMAC_SECRET, wrong: "not-the-token" });
const client = createHttpProviderClient({ secrets, outbound: connectToAnyAddress });
const config = (overrides: Partial<MultitenantSaasConfig> = {}): MultitenantSaasConfig => ({
  base_url: sim.url,
  onboard_endpoint: "/api/marketplace/onboard",
  status_endpoint: "/api/marketplace/status",
  auth_mode: "bearer",
  credentials_ref: "sim_token",
  timeout_seconds: 5,
  ...overrides,
});
const onboarding = (): OnboardRequest => ({
  order_id: crypto.randomUUID(),
  order_item_id: crypto.randomUUID(),
  product_ref: "pos-standard",
  plan: "standard",
  billing_interval: "monthly",
  customer: { id: crypto.randomUUID(), email: "owner@example.com", name: "Shop Owner" },
});

async function fault(route: string, mode: string, extra: Record<string, unknown> = {}) {
  const response = await fetch(`${sim.url}/__sim/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ route, mode, count: 1, ...extra }),
  });
  expect(response.status).toBeLessThan(300);
}

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  try {
    await promise;
  } catch (error) {
    return error as UpstreamError;
  }
  throw new Error("expected the call to fail");
}

describe("provider client happy paths", () => {
  test("onboard creates, repeats, and status answers in both forms", async () => {
    const request = onboarding();
    const first = await client.onboard(config(), request);
    expect(first.created).toBeTrue();
    expect(first.tenant.status).toBe("active");
    const again = await client.onboard(config(), request);
    expect(again).toEqual({ created: false, tenant: first.tenant });
    const byPost = await client.status(config(), first.tenant.external_reference_id);
    const byGet = await client.status(
      config({ status_endpoint: "/api/marketplace/status/{external_reference}" }),
      first.tenant.external_reference_id,
    );
    expect(byPost).toEqual(byGet);
  });

  test("hmac mode signs requests the provider accepts", async () => {
    const { tenant } = await client.onboard(config({ auth_mode: "hmac", credentials_ref: "sim_hmac" }), onboarding());
    const suspended = await client.suspend(
      config({ auth_mode: "hmac", credentials_ref: "sim_hmac" }),
      tenant.external_reference_id,
    );
    expect(suspended.status).toBe("suspended");
  });

  test("suspend, upgrade and cancel move the tenant", async () => {
    const { tenant } = await client.onboard(config(), onboarding());
    expect((await client.suspend(config(), tenant.external_reference_id, "payment failed")).status).toBe("suspended");
    const upgraded = await client.upgrade(config(), tenant.external_reference_id, "pro");
    expect(upgraded).toMatchObject({ status: "active", plan: "pro" });
    expect((await client.cancel(config(), tenant.external_reference_id)).status).toBe("cancelled");
  });
});

describe("provider client failures become typed errors", () => {
  test("a 500 is a transient UpstreamServerError", async () => {
    await fault("onboard", "error", { status: 500 });
    const error = await failure(client.onboard(config(), onboarding()));
    expect(error).toBeInstanceOf(UpstreamServerError);
    expect(error.transient).toBeTrue();
  });

  test("a 429 is UpstreamRateLimited carrying Retry-After", async () => {
    await fault("onboard", "rate_limit", { retry_after_s: 7 });
    const error = await failure(client.onboard(config(), onboarding()));
    expect(error).toBeInstanceOf(UpstreamRateLimited);
    expect(error.retryAfterMs).toBe(7000);
    expect(error.transient).toBeTrue();
  });

  test("an answer slower than timeout_seconds is a UpstreamTimeout", async () => {
    await fault("onboard", "delay", { delay_ms: 2500 });
    const started = performance.now();
    const error = await failure(client.onboard(config({ timeout_seconds: 1 }), onboarding()));
    expect(error).toBeInstanceOf(UpstreamTimeout);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  test("a provider that hangs is a UpstreamTimeout too", async () => {
    await fault("status", "hang");
    const error = await failure(client.status(config({ timeout_seconds: 1 }), "ref_anything"));
    expect(error).toBeInstanceOf(UpstreamTimeout);
  });

  test("connection refused is a transient UpstreamUnreachable", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const error = await failure(client.onboard(config({ base_url: closed }), onboarding()));
    expect(error).toBeInstanceOf(UpstreamUnreachable);
    expect(error.transient).toBeTrue();
  });

  test("a malformed body is a UpstreamBadResponse", async () => {
    await fault("onboard", "garbage");
    const error = await failure(client.onboard(config(), onboarding()));
    expect(error).toBeInstanceOf(UpstreamBadResponse);
  });

  test("valid JSON that breaks the contract is a UpstreamBadResponse", async () => {
    const liar = Bun.serve({
      port: 0,
      fetch: () => Response.json({ external_reference_id: "x", status: "great" }, { status: 201 }),
    });
    try {
      const error = await failure(client.onboard(config({ base_url: `http://127.0.0.1:${liar.port}` }), onboarding()));
      expect(error).toBeInstanceOf(UpstreamBadResponse);
      expect(error.message).toContain("body");
    } finally {
      liar.stop(true);
    }
  });

  test("a wrong token is a permanent rejection", async () => {
    const error = await failure(client.onboard(config({ credentials_ref: "wrong" }), onboarding()));
    expect(error).toBeInstanceOf(UpstreamRejected);
    expect(error).toMatchObject({ code: "PROVIDER_AUTH_FAILED", transient: false });
  });

  test("an onboarding conflict is a permanent rejection with the provider's code", async () => {
    const request = onboarding();
    await client.onboard(config(), request);
    const error = await failure(client.onboard(config(), { ...request, plan: "pro" }));
    expect(error).toMatchObject({
      code: "PROVIDER_REJECTED",
      status: 409,
      upstreamCode: "ONBOARDING_CONFLICT",
      transient: false,
    });
  });

  test("an unknown reference is PROVIDER_NOT_FOUND", async () => {
    const error = await failure(client.status(config(), "ref_does_not_exist"));
    expect(error).toMatchObject({ code: "PROVIDER_NOT_FOUND", status: 404 });
  });

  test("a reference to a secret nobody stored is CredentialsNotFound, before any request", async () => {
    const error = await failure(client.onboard(config({ credentials_ref: "missing" }), onboarding()));
    expect(error).toBeInstanceOf(CredentialsNotFound);
  });
});
