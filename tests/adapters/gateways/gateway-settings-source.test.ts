import { describe, expect, test } from "bun:test";
import { createGatewaySettingsSource } from "../../../adapters/gateways/gateway-settings-source.ts";
import type { GatewaySettings } from "../../../application/payments/gateway-settings-ports.ts";
import { GatewayHostNotAllowed } from "../../../domain/payments/errors.ts";
import { SecretPurposeMismatch } from "../../../domain/secrets/errors.ts";
import { createInMemoryChangeSignal } from "../../support/fakes/in-memory-change-signal.ts";
import { createInMemoryGatewaySettingsRepository } from "../../support/fakes/in-memory-gateway-settings-repository.ts";
import { createInMemorySecretStore } from "../../support/fakes/in-memory-secret-store.ts";

const VALUES = {
  gateway_b_sandbox_api_key: "sk_test_1",
  gateway_b_sandbox_webhook_secret: "whsec_sandbox",
  gateway_b_live_api_key: "sk_live_1",
  gateway_b_live_webhook_secret: "whsec_live",
};

async function sourceWith(change: (settings: GatewaySettings) => GatewaySettings, liveOfficialHostsOnly = false) {
  const repository = createInMemoryGatewaySettingsRepository();
  await repository.save(change(await repository.get("gateway_b")));
  return createGatewaySettingsSource({
    repository,
    secrets: createInMemorySecretStore(VALUES),
    changes: createInMemoryChangeSignal(),
    hosts: { liveOfficialHostsOnly },
  });
}

describe("the settings a gateway call resolves", () => {
  test("resolves each secret for its own purpose", async () => {
    const source = await sourceWith((s) => s);
    expect(await source.resolve("gateway_b")).toMatchObject({ api_key: "sk_test_1", client_key: null });
    expect(await source.webhookSecrets("gateway_b")).toMatchObject([
      { environment: "sandbox", secrets: ["whsec_sandbox"] },
      { environment: "live", secrets: ["whsec_live"] },
    ]);
  });

  test("a webhook secret named as the client key (which goes to browsers) is refused, not resolved", async () => {
    const source = await sourceWith((s) => ({
      ...s,
      sandbox: { ...s.sandbox, client_key_ref: "gateway_b_sandbox_webhook_secret" },
    }));
    await expect(source.resolve("gateway_b")).rejects.toBeInstanceOf(SecretPurposeMismatch);
  });

  test("the other environment's key is refused for this one", async () => {
    const source = await sourceWith((s) => ({
      ...s,
      sandbox: { ...s.sandbox, api_key_ref: "gateway_b_live_api_key" },
    }));
    await expect(source.resolve("gateway_b")).rejects.toBeInstanceOf(SecretPurposeMismatch);
  });

  test("an API key named as a webhook secret is never used to check signatures", async () => {
    const source = await sourceWith((s) => ({
      ...s,
      live: { ...s.live, webhook_secret_ref: "gateway_b_live_api_key" },
    }));
    await expect(source.webhookSecrets("gateway_b")).rejects.toBeInstanceOf(SecretPurposeMismatch);
  });

  test("in production, a live key is not resolved for a host that is not the gateway's own", async () => {
    const stored = await sourceWith((s) => ({ ...s, environment: "live" }), true);
    await expect(stored.resolve("gateway_b")).rejects.toBeInstanceOf(GatewayHostNotAllowed);
    const official = await sourceWith(
      (s) => ({ ...s, environment: "live", live: { ...s.live, base_url: "https://api.stripe.com" } }),
      true,
    );
    expect(await official.resolve("gateway_b")).toMatchObject({ api_key: "sk_live_1" });
    const sandbox = await sourceWith((s) => s, true);
    expect(await sandbox.resolve("gateway_b")).toMatchObject({ base_url: "https://sandbox.gateway_b.example" });
  });
});
