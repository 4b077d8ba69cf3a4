import { urlFieldsOf } from "../../domain/catalog/config-spec.ts";
import { configOf, DRIVER_CONFIG_SPECS, type MultitenantSaasConfig } from "../../domain/catalog/drivers.ts";
import { ProductNotFound } from "../../domain/catalog/errors.ts";
import { canonicalSecretRef, providerPurpose } from "../../domain/secrets/secret-purpose.ts";
import { ValidationFailed } from "../../domain/shared/errors.ts";
import type { AuditEntry } from "../audit/ports.ts";
import type { ProductRepository } from "../catalog/ports.ts";
import { destinationAlert, type SecretStore, type SecretUseLog } from "../secrets/ports.ts";
import { type ConnectionFailure, connectionFailure } from "../shared/connection-check.ts";
import { UpstreamRejected } from "../shared/errors.ts";
import { assertOutboundUrls, type OutboundUrlPolicy } from "../shared/outbound-urls.ts";
import type { ProviderClient } from "./ports.ts";

export type ProviderConnectionInput =
  | { readonly product_id: string }
  | { readonly fulfillment_driver: string; readonly fulfillment_config: unknown };

export type ProviderConnectionReport =
  | { readonly ok: true; readonly latency_ms: number }
  | ({ readonly ok: false } & ConnectionFailure);

/** A reference no checkout ever produces, so asking for it provisions and changes nothing. */
export const CONNECTION_PROBE_REFERENCE = "marketplace-connection-test";

const SAAS_SPEC = DRIVER_CONFIG_SPECS.multitenant_saas;

function notTestable(driver: string): ValidationFailed {
  return new ValidationFailed(
    [{ path: "/fulfillment_driver", code: "NOT_TESTABLE", message: `${driver} does not connect to a provider` }],
    "Only multitenant_saas fulfillment connects to a provider.",
  );
}

const PROVIDER_WORDING = {
  notConfigured: "No credentials are stored under credentials_ref.",
  badCredentials: (status: number) => `The provider refused the credentials with HTTP ${status}.`,
  unreachable: "The provider could not be reached.",
  timeout: "The provider did not answer within timeout_seconds.",
  unexpectedResponse: () => "The provider answered in a way the contract does not allow.",
};

/** The test is audited like a change: who sent which secret where, written before it is sent. */
function testEntry(input: ProviderConnectionInput, config: MultitenantSaasConfig, actorId: string): AuditEntry {
  const saved = "product_id" in input;
  return {
    actor_id: actorId,
    action: "fulfillment.test_connection",
    // An unsaved configuration has no product: the entry is found under the secret it sent.
    target_type: saved ? "product" : "secret",
    target_id: saved ? input.product_id : canonicalSecretRef(config.credentials_ref),
    summary: {
      saved,
      base_url: config.base_url,
      auth_mode: config.auth_mode,
      credentials_ref: canonicalSecretRef(config.credentials_ref),
    },
  };
}

/**
 * The "test connection" action of a SaaS product: checks the configuration, its addresses and that
 * `credentials_ref` is a provider secret for its `auth_mode`, then asks the provider for the status
 * of a reference that does not exist. The contract's `TENANT_NOT_FOUND` (or a tenant) proves
 * address, credentials and signing all work. An unsaved configuration may send the secret to an
 * address no product uses, so operations are told (once per secret and address).
 */
export function makeTestProviderConnection(deps: {
  products: ProductRepository;
  provider: ProviderClient;
  urls: OutboundUrlPolicy;
  secrets: Pick<SecretStore, "claim">;
  uses: SecretUseLog;
  /** Milliseconds from any origin, for the latency. */
  now: () => number;
}) {
  async function productOf(id: string) {
    const product = await deps.products.findById(id);
    if (!product) throw new ProductNotFound();
    return product;
  }

  /** The stored product's configuration, or the one being edited (not saved yet). */
  async function saasConfigOf(input: ProviderConnectionInput): Promise<MultitenantSaasConfig> {
    const source = "product_id" in input ? await productOf(input.product_id) : input;
    const config = configOf(source, "multitenant_saas");
    if (!config) throw notTestable(source.fulfillment_driver);
    return config;
  }

  return async function testProviderConnection(
    input: ProviderConnectionInput,
    actorId: string,
  ): Promise<ProviderConnectionReport> {
    const config = await saasConfigOf(input);
    const fields = urlFieldsOf(SAAS_SPEC, config, "/fulfillment_config");
    await assertOutboundUrls(deps.urls, fields);
    const purpose = providerPurpose(config.auth_mode);
    const ref = canonicalSecretRef(config.credentials_ref);
    await deps.secrets.claim([{ path: "/fulfillment_config/credentials_ref", ref, purpose }]);
    const alerts =
      "product_id" in input
        ? []
        : [destinationAlert({ ref, purpose, address: config.base_url }, actorId, "test-connection")];
    await deps.uses.record([testEntry(input, config, actorId)], alerts);
    const started = deps.now();
    try {
      await deps.provider.status(config, CONNECTION_PROBE_REFERENCE);
    } catch (error) {
      const tenantUnknown =
        error instanceof UpstreamRejected && error.status === 404 && error.upstreamCode === "TENANT_NOT_FOUND";
      if (!tenantUnknown) return { ok: false, ...connectionFailure(error, PROVIDER_WORDING) };
    }
    return { ok: true, latency_ms: Math.round(deps.now() - started) };
  };
}
