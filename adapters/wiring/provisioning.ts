import type { FulfillmentRepository, OpsTaskRepository } from "../../application/fulfillment/ports.ts";
import { makeQueryProviderManagement } from "../../application/provisioning/provider-management.ts";
import { makeTestProviderConnection } from "../../application/provisioning/test-provider-connection.ts";
import { createMultitenantSaasAdapter } from "../fulfillment/multitenant-saas-adapter.ts";
import { createSingletenantProvisioningAdapter } from "../fulfillment/singletenant-provisioning-adapter.ts";
import { createPostgresInstallationRepository } from "../postgres/installation-repository.ts";
import { createHttpProviderClient } from "../provider/http-provider-client.ts";
import type { CatalogFeature } from "./catalog.ts";
import type { Platform } from "./platform.ts";

/** The SaaS provider's API (tenants, plans, connection checks) and the two drivers that provision. */
export function wireProvisioning(platform: Platform, { catalog }: { readonly catalog: CatalogFeature["catalog"] }) {
  const { config, sql, secrets, secretUses, outbound, urls, clock } = platform;
  const provider = createHttpProviderClient({ secrets, outbound });
  return {
    provider,
    useCases: {
      queryProviderManagement: makeQueryProviderManagement({ products: catalog.products, provider }),
      testProviderConnection: makeTestProviderConnection({
        products: catalog.products,
        provider,
        urls,
        secrets,
        uses: secretUses,
        now: () => performance.now(),
      }),
    },
    /** The drivers, once the fulfillment records and ops tasks they write to exist. */
    drivers(stores: { readonly fulfillments: FulfillmentRepository; readonly tasks: OpsTaskRepository }) {
      return {
        multitenant_saas: createMultitenantSaasAdapter({ provider, fulfillments: stores.fulfillments }),
        singletenant_provisioning: createSingletenantProvisioningAdapter({
          installations: createPostgresInstallationRepository(sql),
          tasks: stores.tasks,
          clock,
          outbound,
          installDomain: config.installDomain,
          platformDomains: [new URL(config.publicBaseUrl).hostname],
        }),
      };
    },
  };
}

export type ProvisioningFeature = ReturnType<typeof wireProvisioning>;
