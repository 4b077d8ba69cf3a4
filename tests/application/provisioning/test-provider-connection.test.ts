import { describe, expect, test } from "bun:test";
import {
  CONNECTION_PROBE_REFERENCE,
  makeTestProviderConnection,
} from "../../../application/provisioning/test-provider-connection.ts";
import {
  CredentialsNotFound,
  UpstreamRejected,
  UpstreamTimeout,
  UpstreamUnreachable,
  UpstreamUrlNotAllowed,
  UrlNotAllowed,
} from "../../../application/shared/errors.ts";
import { ProductNotFound } from "../../../domain/catalog/errors.ts";
import { validateProduct } from "../../../domain/catalog/product.ts";
import { SecretPurposeMismatch } from "../../../domain/secrets/errors.ts";
import { ValidationFailed } from "../../../domain/shared/errors.ts";
import { aLicenseProduct, aPointOfSaleProduct } from "../../support/builders/products.ts";
import { createFakeProviderClient } from "../../support/fakes/fake-provider-client.ts";
import { createInMemoryProductRepository } from "../../support/fakes/in-memory-product-repository.ts";
import { createInMemorySecretStore } from "../../support/fakes/in-memory-secret-store.ts";
import { createRecordingSecretUseLog } from "../../support/fakes/recording-secret-use-log.ts";
import { createStaticOutboundUrlPolicy } from "../../support/fakes/static-outbound-url-policy.ts";

const ADMIN = "0b9a3c1e-5d4f-4a6b-8c7d-9e0f1a2b3c4d";

function setup(refusedHosts: readonly string[] = []) {
  const products = createInMemoryProductRepository();
  const provider = createFakeProviderClient();
  const urls = createStaticOutboundUrlPolicy(refusedHosts);
  /** Each reading of the clock is 25 ms after the previous one. */
  let now = 1_000;
  const secrets = createInMemorySecretStore();
  const uses = createRecordingSecretUseLog();
  const testConnection = makeTestProviderConnection({
    products,
    provider,
    urls,
    secrets,
    uses,
    now: () => (now += 25),
  });
  const test = (input: Parameters<typeof testConnection>[0]) => testConnection(input, ADMIN);
  const stored = async (input = aPointOfSaleProduct()) => {
    const product = await products.insert(validateProduct(input));
    if (!product) throw new Error("product insert failed");
    return { product_id: product.id };
  };
  const draft = (config: unknown = aPointOfSaleProduct().fulfillment_config) => ({
    fulfillment_driver: "multitenant_saas",
    fulfillment_config: config,
  });
  return { provider, urls, test, stored, draft, secrets, uses };
}

const tenantNotFound = () => new UpstreamRejected("provider", 404, "TENANT_NOT_FOUND", "no such tenant");

describe("testing a provider connection", () => {
  test("the provider's TENANT_NOT_FOUND for the probe reference proves the connection, with its latency", async () => {
    const t = setup();
    t.provider.failWith(tenantNotFound());

    expect(await t.test(await t.stored())).toEqual({ ok: true, latency_ms: 25 });
    expect(t.provider.calls.map((call) => [call.method, call.argument])).toEqual([
      ["status", CONNECTION_PROBE_REFERENCE],
    ]);
  });

  test("a draft configuration is tested as given, before it is saved", async () => {
    const t = setup();
    expect(await t.test(t.draft())).toEqual({ ok: true, latency_ms: 25 });
    expect(t.provider.calls[0]?.config.base_url).toBe("https://provider.example.com");
  });

  test.each([
    ["a 401", () => new UpstreamRejected("provider", 401, "UNAUTHORIZED", undefined), "bad_credentials", "HTTP 401"],
    ["no answer", () => new UpstreamUnreachable("provider", "refused"), "unreachable", "could not be reached"],
    ["a timeout", () => new UpstreamTimeout("provider", 45), "timeout", "timeout_seconds"],
    ["no secret", () => new CredentialsNotFound("provider", "pos_token"), "not_configured", "credentials_ref"],
    [
      "another 404",
      () => new UpstreamRejected("provider", 404, "NOT_FOUND", undefined),
      "unexpected_response",
      "contract",
    ],
  ])("%s is reported as %s in the action's own words", async (_name, failure, reason, words) => {
    const t = setup();
    t.provider.failWith(failure());

    const report = await t.test(await t.stored());

    expect(report).toMatchObject({ ok: false, reason });
    expect(report.ok ? "" : report.message).toContain(words);
  });

  test("an address the marketplace does not call is refused before anything is sent", async () => {
    const t = setup(["provider.example.com"]);

    const refused = await t.test(t.draft()).catch((error) => error);

    expect(refused).toBeInstanceOf(UrlNotAllowed);
    expect(refused.errors.map((e: { path: string }) => e.path)).toEqual([
      "/fulfillment_config/base_url",
      "/fulfillment_config/management/base_url",
    ]);
    expect(t.provider.calls).toEqual([]);
  });

  test("an address refused as the call connects is the admin's to fix, not a report", async () => {
    const t = setup();
    t.provider.failWith(new UpstreamUrlNotAllowed("provider", "10.0.0.8 is private", false));
    await expect(t.test(await t.stored())).rejects.toBeInstanceOf(UpstreamUrlNotAllowed);
  });

  test("an invalid draft or a product of another driver is not testable and calls nobody", async () => {
    const t = setup();
    await expect(t.test(t.draft({ base_url: "https://provider.example.com" }))).rejects.toBeInstanceOf(
      ValidationFailed,
    );
    await expect(t.test({ fulfillment_driver: "license_download", fulfillment_config: {} })).rejects.toMatchObject({
      errors: [expect.objectContaining({ path: "/fulfillment_driver", code: "NOT_TESTABLE" })],
    });
    await expect(t.test(await t.stored(aLicenseProduct()))).rejects.toMatchObject({
      errors: [expect.objectContaining({ code: "NOT_TESTABLE" })],
    });
    expect(t.provider.calls).toEqual([]);
  });

  test("an unknown product is not found", async () => {
    const t = setup();
    await expect(t.test({ product_id: crypto.randomUUID() })).rejects.toBeInstanceOf(ProductNotFound);
  });
});

describe("the secret a connection test sends", () => {
  test.each([
    "gateway_a_sandbox_webhook_secret",
    "gateway_a_live_webhook_secret",
    "gateway_b_sandbox_webhook_secret",
    "gateway_b_live_webhook_secret",
    "gateway_a_sandbox_api_key",
    "gateway_b_live_api_key",
  ])("%s as credentials_ref is refused naming both purposes, and nothing is sent or audited", async (ref) => {
    const t = setup();
    const config = { ...aPointOfSaleProduct().fulfillment_config, credentials_ref: ref };
    const refused = await t.test(t.draft(config)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SecretPurposeMismatch);
    expect((refused as SecretPurposeMismatch).errors).toEqual([
      {
        path: "/fulfillment_config/credentials_ref",
        code: "SECRET_PURPOSE_MISMATCH",
        message: expect.stringMatching(/gateway_(a|b) (sandbox|live) .*cannot be used as a provider bearer token/),
      },
    ]);
    expect(t.provider.calls).toEqual([]);
    expect(t.uses.entries).toEqual([]);
  });

  test("a provider secret declared for HMAC is not sent as a bearer token", async () => {
    const t = setup();
    await t.secrets.put("pos_provider_token", "k", { kind: "provider_hmac_key" });
    await expect(t.test(t.draft())).rejects.toBeInstanceOf(SecretPurposeMismatch);
    expect(t.provider.calls).toEqual([]);
  });

  test("a saved product's test is audited under the product, before the call", async () => {
    const t = setup();
    const saved = await t.stored();
    await t.test(saved);
    expect(t.uses.entries).toEqual([
      {
        actor_id: ADMIN,
        action: "fulfillment.test_connection",
        target_type: "product",
        target_id: saved.product_id,
        summary: {
          saved: true,
          base_url: "https://provider.example.com",
          auth_mode: "bearer",
          credentials_ref: "pos_provider_token",
        },
      },
    ]);
    expect(t.uses.alerts).toEqual([]);
  });

  test("an unsaved configuration's test is audited under its secret and operations are told where it went", async () => {
    const t = setup();
    const config = { ...aPointOfSaleProduct().fulfillment_config, base_url: "https://elsewhere.example" };
    await t.test(t.draft(config));
    expect(t.uses.entries).toMatchObject([
      {
        action: "fulfillment.test_connection",
        target_type: "secret",
        target_id: "pos_provider_token",
        summary: { saved: false, base_url: "https://elsewhere.example" },
      },
    ]);
    expect(t.uses.alerts).toEqual([
      {
        kind: "secret_destination",
        target_id: "pos_provider_token",
        occurrence: "https://elsewhere.example",
        details: {
          purpose: "a provider bearer token (provider_bearer_token)",
          address: "https://elsewhere.example",
          actor_id: ADMIN,
          via: "test-connection",
        },
      },
    ]);
  });

  test("an unsaved test under another spelling of the reference is audited and told under its one name", async () => {
    const t = setup();
    const config = {
      ...aPointOfSaleProduct().fulfillment_config,
      base_url: "https://elsewhere.example",
      credentials_ref: "POS-Provider.Token",
    };
    await t.test(t.draft(config));
    expect(t.uses.entries).toMatchObject([
      { target_id: "pos_provider_token", summary: { credentials_ref: "pos_provider_token" } },
    ]);
    expect(t.uses.alerts).toMatchObject([{ target_id: "pos_provider_token", occurrence: "https://elsewhere.example" }]);
  });
});
