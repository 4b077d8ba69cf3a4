import { urlFieldsOf } from "../../domain/catalog/config-spec.ts";
import { configOf, DRIVER_CONFIG_SPECS, type MultitenantSaasConfig } from "../../domain/catalog/drivers.ts";
import { ProductNotFound } from "../../domain/catalog/product.ts";
import { ValidationFailed } from "../../domain/shared/domain-error.ts";
import type { ProductRepository } from "../catalog/ports.ts";
import { type ConnectionFailure, connectionFailure } from "../shared/connection-check.ts";
import { assertOutboundUrls, type OutboundUrlPolicy } from "../shared/outbound-urls.ts";
import { UpstreamRejected } from "../shared/upstream-errors.ts";
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

/**
 * The "test connection" action of a SaaS product: checks the configuration and its addresses,
 * then asks the provider for the status of a reference that does not exist. The contract's
 * `TENANT_NOT_FOUND` (or a tenant) proves address, credentials and signing all work.
 */
export function makeTestProviderConnection(deps: {
  products: ProductRepository;
  provider: ProviderClient;
  urls: OutboundUrlPolicy;
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

  return async function testProviderConnection(input: ProviderConnectionInput): Promise<ProviderConnectionReport> {
    const config = await saasConfigOf(input);
    const fields = urlFieldsOf(SAAS_SPEC, config, "/fulfillment_config");
    await assertOutboundUrls(deps.urls, fields);
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
