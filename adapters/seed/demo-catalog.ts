import { SYSTEM_ACTOR_ID } from "../../application/audit/ports.ts";
import { SlugTaken } from "../../domain/catalog/errors.ts";
import type { PricingMappingInput } from "../../domain/catalog/pricing.ts";
import type { ProductInput } from "../../domain/catalog/product.ts";
import type { AppDeps } from "../http/app.ts";

/** The secret reference the demo point-of-sale product authenticates with (see docs/decisions/demo-catalog.md). */
export const DEMO_PROVIDER_CREDENTIALS_REF = "provider_sim_token";

const monthlyAndYearly = (monthly: number, yearly: number): PricingMappingInput[] => [
  { payment_type: "subscription", billing_interval: "monthly", price: monthly, is_active: true },
  { payment_type: "subscription", billing_interval: "yearly", price: yearly, is_active: true },
];
const regularAndExtended = (regular: number, extended: number): PricingMappingInput[] => [
  { payment_type: "one_time", license_type: "regular", price: regular, is_active: true },
  { payment_type: "one_time", license_type: "extended", price: extended, is_active: true },
];

function demoProducts(providerBaseUrl: string): [ProductInput, PricingMappingInput[]][] {
  const common = { status: "published", enabled_payment_gateways: ["gateway_a", "gateway_b"] } as const;
  return [
    [
      {
        ...common,
        name: "Tillpoint POS",
        slug: "tillpoint-pos",
        description: "Cloud point of sale for shops and cafés: a hosted workspace, ready minutes after payment.",
        tags: ["pos", "saas", "retail"],
        delivery_model: "saas_multitenant",
        fulfillment_driver: "multitenant_saas",
        external_provider: "tillpoint",
        external_product_ref: "pos-standard",
        is_recurring: true,
        supports_trial: true,
        trial_days: 14,
        default_payment_gateway: "gateway_a",
        fulfillment_config: {
          base_url: providerBaseUrl,
          onboard_endpoint: "/api/marketplace/onboard",
          status_endpoint: "/api/marketplace/status",
          suspend_endpoint: "/api/marketplace/suspend",
          cancel_endpoint: "/api/marketplace/cancel",
          auth_mode: "bearer",
          credentials_ref: DEMO_PROVIDER_CREDENTIALS_REF,
          timeout_seconds: 45,
          management: {
            enabled: true,
            base_url: providerBaseUrl,
          },
        },
      },
      monthlyAndYearly(2900, 29000),
    ],
    [
      {
        ...common,
        name: "Ledgerly Dedicated",
        slug: "ledgerly-dedicated",
        description: "Bookkeeping on a dedicated server under your own domain.",
        tags: ["accounting", "saas"],
        delivery_model: "saas_singletenant",
        fulfillment_driver: "singletenant_provisioning",
        is_recurring: true,
        default_payment_gateway: "gateway_b",
        fulfillment_config: {
          server_profile: "standard-2cpu-4gb",
          resource_limits_profile: "small-business",
          domain_strategy: "customer_domain",
        },
      },
      monthlyAndYearly(9900, 99000),
    ],
    [
      {
        ...common,
        name: "Shelfwise Self-Hosted",
        slug: "shelfwise-self-hosted",
        description: "Inventory management you run on your own servers: a signed license and downloads.",
        tags: ["inventory", "self-hosted"],
        delivery_model: "self_hosted_license",
        fulfillment_driver: "license_download",
        is_recurring: true,
        default_release_version: "2.4.1",
        default_payment_gateway: "gateway_a",
        fulfillment_config: {
          license_type: "commercial",
          artifact_source: `${providerBaseUrl}/artifacts/shelfwise`,
          max_activations: 3,
        },
      },
      [...regularAndExtended(4900, 14900), ...monthlyAndYearly(900, 9000)],
    ],
    [
      {
        ...common,
        name: "Storefront Setup Service",
        slug: "storefront-setup-service",
        description: "Our team installs and configures your storefront, then hands it over.",
        tags: ["services", "setup"],
        delivery_model: "managed_setup",
        fulfillment_driver: "manual_fulfillment",
        is_recurring: false,
        default_payment_gateway: "gateway_b",
        fulfillment_config: {
          queue_id: "onboarding-team",
          sla_hours: 48,
          instructions_template: "Set up the storefront for {{customer_email}} (order {{order_id}}).",
        },
      },
      regularAndExtended(19900, 39900),
    ],
  ];
}

/**
 * One product per kind of delivery, the point-of-sale product first, on an empty catalog only.
 * Two instances seeding at once is harmless: the slug decides, and the loser skips. The audit log
 * names the marketplace itself as the actor.
 */
export async function seedDemoCatalog(
  deps: Pick<AppDeps, "createProduct" | "savePricingMappings" | "listAdminProducts">,
  options: { providerBaseUrl: string },
): Promise<string[]> {
  const existing = await deps.listAdminProducts({}, { limit: 1 });
  if (existing.items.length > 0) return [];
  const seeded: string[] = [];
  for (const [input, mappings] of demoProducts(options.providerBaseUrl)) {
    try {
      const product = await deps.createProduct(input, SYSTEM_ACTOR_ID);
      await deps.savePricingMappings(product.id, mappings, SYSTEM_ACTOR_ID);
      seeded.push(product.slug);
    } catch (error) {
      if (!(error instanceof SlugTaken)) throw error;
    }
  }
  return seeded;
}
