import { describe, expect, test } from "bun:test";
import { makeGatewaySettingsAdmin, type SettingsPatch } from "../../../application/payments/gateway-settings.ts";
import { GATEWAY_SETTINGS_TOPIC } from "../../../application/payments/gateway-settings-ports.ts";
import { UrlNotAllowed } from "../../../application/shared/errors.ts";
import type { PaymentGatewayName } from "../../../domain/catalog/product.ts";
import { GatewayHostNotAllowed } from "../../../domain/payments/errors.ts";
import { SecretPurposeMismatch } from "../../../domain/secrets/errors.ts";
import { gatewayPurpose } from "../../../domain/secrets/secret-purpose.ts";
import { ValidationFailed } from "../../../domain/shared/errors.ts";
import { createInMemoryAuditLogWriter } from "../../support/fakes/in-memory-audit-log-writer.ts";
import { createInMemoryChangeSignal } from "../../support/fakes/in-memory-change-signal.ts";
import { createInMemoryGatewaySettingsRepository } from "../../support/fakes/in-memory-gateway-settings-repository.ts";
import { createInMemorySecretStore } from "../../support/fakes/in-memory-secret-store.ts";
import { createRecordingSecretUseLog } from "../../support/fakes/recording-secret-use-log.ts";
import { createStaticOutboundUrlPolicy } from "../../support/fakes/static-outbound-url-policy.ts";
import { createWebhookSendingPaymentGateway } from "../../support/fakes/webhook-sending-payment-gateway.ts";

const ADMIN = "0b9a3c1e-5d4f-4a6b-8c7d-9e0f1a2b3c4d";
const LIVE_WEBHOOK = gatewayPurpose("gateway_webhook_secret", "gateway_b", "live");

/** The settings use cases as the signed-in admin `ADMIN` calls them. */
function setUp(
  secrets: Record<string, string> = { gateway_b_sandbox_api_key: "sk_test_1" },
  hosts = { liveOfficialHostsOnly: false },
) {
  const audit = createInMemoryAuditLogWriter();
  const repository = createInMemoryGatewaySettingsRepository(audit);
  const store = createInMemorySecretStore(secrets, audit);
  const changes = createInMemoryChangeSignal();
  const urls = createStaticOutboundUrlPolicy(["10.0.0.1"]);
  const gateways = {
    gateway_a: createWebhookSendingPaymentGateway("gateway_a"),
    gateway_b: createWebhookSendingPaymentGateway("gateway_b"),
  };
  const uses = createRecordingSecretUseLog();
  const settings = makeGatewaySettingsAdmin({ repository, secrets: store, changes, gateways, urls, hosts, uses });
  const admin = {
    ...settings,
    update: (gateway: PaymentGatewayName, patch: SettingsPatch) => settings.update(gateway, patch, ADMIN),
    testConnection: (gateway: PaymentGatewayName) => settings.testConnection(gateway, ADMIN),
  };
  return { repository, store, changes, urls, gateways, admin, audit, uses };
}

const fieldErrors = async (promise: Promise<unknown>) => {
  const error = await promise.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ValidationFailed);
  return (error as ValidationFailed).errors?.map((e) => `${e.path} ${e.code}`);
};

describe("describing a gateway's settings", () => {
  test("shows each secret's reference and whether it resolves, never its value", async () => {
    const { admin } = setUp();
    const described = await admin.describe("gateway_b");
    expect(described.sandbox).toMatchObject({
      api_key_ref: "gateway_b_sandbox_api_key",
      api_key_configured: true,
      webhook_secret_configured: false,
      client_key_configured: false,
    });
    expect(JSON.stringify(described)).not.toContain("sk_test_1");
  });
});

describe("updating a gateway's settings", () => {
  test("merges the change, stores the secrets under their references and tells every instance", async () => {
    const { admin, repository, store, changes } = setUp();
    const described = await admin.update("gateway_b", {
      environment: "live",
      timeout_seconds: 20,
      tax_behavior: "inclusive",
      live: { base_url: "https://api.gateway.example", webhook_secret: "whsec_live" },
    });
    expect(await repository.get("gateway_b")).toMatchObject({
      environment: "live",
      timeout_seconds: 20,
      tax_behavior: "inclusive",
      webhook_tolerance_seconds: 300,
      live: { base_url: "https://api.gateway.example", webhook_secret_ref: "gateway_b_live_webhook_secret" },
      sandbox: { base_url: "https://sandbox.gateway_b.example" },
    });
    expect(await store.resolve("gateway_b_live_webhook_secret", LIVE_WEBHOOK)).toBe("whsec_live");
    expect(described.live.webhook_secret_configured).toBe(true);
    expect(JSON.stringify(await repository.get("gateway_b"))).not.toContain("whsec_live");
    expect(changes.published).toEqual([GATEWAY_SETTINGS_TOPIC]);
  });

  test("refuses what is not valid, listing every field, and saves nothing", async () => {
    const { admin, repository, store, changes } = setUp();
    const errors = await fieldErrors(
      admin.update("gateway_b", {
        sandbox: { base_url: "ftp://files.example", api_key_ref: "1 not a ref", client_key: "pk_x" },
        live: { webhook_secret: "whsec_x" },
      }),
    );
    expect(errors).toEqual([
      "/sandbox/base_url INVALID_URL",
      "/sandbox/api_key_ref INVALID_REFERENCE",
      "/sandbox/client_key NO_REFERENCE",
    ]);
    expect(repository.saves()).toBe(0);
    expect(await store.resolve("gateway_b_live_webhook_secret", LIVE_WEBHOOK)).toBeUndefined();
    expect(changes.published).toEqual([]);
  });

  test("refuses an address the marketplace does not call, checking only the addresses changed", async () => {
    const { admin, repository, urls } = setUp();
    const error = await admin
      .update("gateway_b", { live: { base_url: "https://10.0.0.1/api" } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UrlNotAllowed);
    expect((error as UrlNotAllowed).errors).toMatchObject([{ path: "/live/base_url", code: "URL_NOT_ALLOWED" }]);
    expect(repository.saves()).toBe(0);
    await admin.update("gateway_b", { timeout_seconds: 5 });
    expect(urls.asked).toEqual(["https://10.0.0.1/api"]);
  });
});

describe("testing a gateway's connection", () => {
  test("checks the active environment's address, then asks the gateway", async () => {
    const { admin, gateways, urls } = setUp();
    expect(await admin.testConnection("gateway_b")).toMatchObject({ ok: true });
    expect(urls.asked).toEqual(["https://sandbox.gateway_b.example"]);
    expect(gateways.gateway_b.callsOf("testConnection")).toHaveLength(1);
  });

  test("never connects to an address the marketplace does not call", async () => {
    const { admin, repository, gateways } = setUp();
    const settings = await repository.get("gateway_b");
    await repository.save({ ...settings, sandbox: { ...settings.sandbox, base_url: "https://10.0.0.1" } });
    await expect(admin.testConnection("gateway_b")).rejects.toBeInstanceOf(UrlNotAllowed);
    expect(gateways.gateway_b.callsOf("testConnection")).toEqual([]);
  });
});

describe("the audit log", () => {
  test("an update is one gateway_settings.update entry holding the patch, secret values redacted, and one secret.set per secret", async () => {
    const { admin, audit } = setUp();
    await admin.update("gateway_b", {
      environment: "live",
      live: { base_url: "https://api.gateway.example", api_key: "sk_live_very_secret", webhook_secret: "whsec_live" },
    });
    const secretSet = (ref: string) => ({
      actor_id: ADMIN,
      action: "secret.set",
      target_type: "secret",
      target_id: ref,
      summary: { ref, value_set: true, via: "gateway_b live settings" },
    });
    expect(audit.all()).toEqual([
      secretSet("gateway_b_live_api_key"),
      secretSet("gateway_b_live_webhook_secret"),
      {
        actor_id: ADMIN,
        action: "gateway_settings.update",
        target_type: "gateway_settings",
        target_id: "gateway_b",
        summary: {
          environment: "live",
          live: { base_url: "https://api.gateway.example", api_key: "[redacted]", webhook_secret: "[redacted]" },
        },
      },
    ]);
    expect(JSON.stringify(audit.all())).not.toContain("very_secret");
    expect(JSON.stringify(audit.all())).not.toContain("whsec_live");
  });

  test("a refused update leaves no entry", async () => {
    const { admin, audit } = setUp();
    await fieldErrors(admin.update("gateway_b", { sandbox: { base_url: "ftp://files.example" } }));
    await admin.update("gateway_b", { live: { base_url: "https://10.0.0.1/api" } }).catch(() => undefined);
    expect(audit.all()).toEqual([]);
  });
});

describe("secrets by purpose", () => {
  test.each([
    ["api_key_ref", "gateway_b_sandbox_webhook_secret"],
    ["api_key_ref", "gateway_a_sandbox_api_key"],
    ["api_key_ref", "gateway_b_live_api_key"],
    ["api_key_ref", "provider_sim_token"],
    ["client_key_ref", "gateway_b_live_webhook_secret"],
    ["webhook_secret_ref", "gateway_b_sandbox_api_key"],
  ])("sandbox %s naming %s is refused naming both purposes, and nothing is saved", async (field, ref) => {
    const { admin, repository, store, uses } = setUp();
    await store.claim([{ path: "/", ref: "provider_sim_token", purpose: { kind: "provider_bearer_token" } }]);
    const error = await admin
      .update("gateway_b", { sandbox: { base_url: "https://collector.example", [field]: ref } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SecretPurposeMismatch);
    expect((error as SecretPurposeMismatch).errors).toEqual([
      {
        path: `/sandbox/${field}`,
        code: "SECRET_PURPOSE_MISMATCH",
        message: expect.stringMatching(new RegExp(`^${ref} is .* cannot be used as a gateway_b sandbox`)),
      },
    ]);
    expect(repository.saves()).toBe(0);
    expect(uses.entries).toEqual([]);
  });

  test("a stored pairing of a key with another purpose is refused at test-connection, and the gateway is not called", async () => {
    const { admin, repository, gateways, uses } = setUp();
    const settings = await repository.get("gateway_b");
    await repository.save({
      ...settings,
      sandbox: { ...settings.sandbox, api_key_ref: "gateway_b_sandbox_webhook_secret" },
    });
    await expect(admin.testConnection("gateway_b")).rejects.toBeInstanceOf(SecretPurposeMismatch);
    expect(gateways.gateway_b.callsOf("testConnection")).toEqual([]);
    expect(uses.entries).toEqual([]);
  });

  test("a test-connection is audited with where the key goes, before the gateway is asked", async () => {
    const { admin, uses } = setUp();
    await admin.testConnection("gateway_b");
    expect(uses.entries).toEqual([
      {
        actor_id: ADMIN,
        action: "gateway.test_connection",
        target_type: "gateway_settings",
        target_id: "gateway_b",
        summary: {
          environment: "sandbox",
          base_url: "https://sandbox.gateway_b.example",
          api_key_ref: "gateway_b_sandbox_api_key",
        },
      },
    ]);
  });

  test("a new address for an API key is audited and told to operations; other changes are not", async () => {
    const { admin, uses } = setUp();
    await admin.update("gateway_b", { timeout_seconds: 9 });
    expect(uses.entries).toEqual([]);
    await admin.update("gateway_b", { sandbox: { base_url: "https://proxy.example" } });
    expect(uses.entries).toEqual([
      {
        actor_id: ADMIN,
        action: "secret.destination_change",
        target_type: "secret",
        target_id: "gateway_b_sandbox_api_key",
        summary: {
          ref: "gateway_b_sandbox_api_key",
          purpose: "gateway_api_key",
          address: "https://proxy.example",
          previous: "https://sandbox.gateway_b.example",
          via: "gateway_b settings",
        },
      },
    ]);
    expect(uses.alerts).toMatchObject([
      { kind: "secret_destination", target_id: "gateway_b_sandbox_api_key", occurrence: "https://proxy.example" },
    ]);
  });
});

describe("a new address is audited before it is saved", () => {
  test("a save that fails still leaves the new address audited and told, and nothing saved", async () => {
    const { admin, uses, repository } = setUp();
    repository.save = async () => {
      throw new Error("connection lost");
    };
    await expect(admin.update("gateway_b", { sandbox: { base_url: "https://proxy.example" } })).rejects.toThrow();
    expect(uses.entries).toMatchObject([
      { action: "secret.destination_change", summary: { address: "https://proxy.example" } },
    ]);
    expect(uses.alerts).toMatchObject([{ kind: "secret_destination", occurrence: "https://proxy.example" }]);
    expect((await repository.get("gateway_b")).sandbox.base_url).toBe("https://sandbox.gateway_b.example");
  });
});

describe("live addresses in production", () => {
  const production = { liveOfficialHostsOnly: true };

  test("a live address other than the gateway's own host is refused; its own host and sandbox addresses are not", async () => {
    const { admin, repository } = setUp(undefined, production);
    const error = await admin
      .update("gateway_b", { live: { base_url: "https://api.stripe.com.evil.example" } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GatewayHostNotAllowed);
    expect((error as GatewayHostNotAllowed).errors).toMatchObject([{ path: "/live/base_url" }]);
    expect(repository.saves()).toBe(0);
    await admin.update("gateway_b", { live: { base_url: "https://api.stripe.com" } });
    await admin.update("gateway_b", { sandbox: { base_url: "https://anywhere.example" } });
    expect(repository.saves()).toBe(2);
  });

  test.each([
    ["gateway_a", "https://api.paddle.com", true],
    ["gateway_a", "https://sandbox-api.paddle.com", false],
    ["gateway_a", "http://api.paddle.com", false],
    ["gateway_a", "https://api.paddle.com:8443", false],
    ["gateway_b", "https://api.stripe.com/", true],
    ["gateway_b", "https://api.paddle.com", false],
  ] as const)("%s live at %s allowed: %s", async (gateway, url, allowed) => {
    const { admin } = setUp(undefined, production);
    const outcome = await admin.update(gateway, { live: { base_url: url } }).then(
      () => true,
      () => false,
    );
    expect(outcome).toBe(allowed);
  });

  test("a stored live address that is not the gateway's own is refused at test-connection", async () => {
    const { admin, repository, gateways } = setUp(undefined, production);
    const settings = await repository.get("gateway_b");
    await repository.save({ ...settings, environment: "live" });
    await expect(admin.testConnection("gateway_b")).rejects.toBeInstanceOf(GatewayHostNotAllowed);
    expect(gateways.gateway_b.callsOf("testConnection")).toEqual([]);
  });
});
