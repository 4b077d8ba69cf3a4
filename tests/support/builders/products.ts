import type { PricingMappingInput } from "../../../domain/catalog/pricing.ts";
import type { ProductInput } from "../../../domain/catalog/product.ts";

const unique = () => crypto.randomUUID().slice(0, 8);

/** The point-of-sale product with every fulfillment field set, management block included. */
export function aPointOfSaleProduct(overrides: Partial<ProductInput> = {}): ProductInput {
  return {
    name: `Point of Sale ${unique()}`,
    slug: `pos-${unique()}`,
    description: "Hosted point of sale",
    status: "published",
    tags: ["pos", "saas"],
    seo_title: "Point of sale",
    seo_description: "Sell in store and online",
    delivery_model: "saas_multitenant",
    fulfillment_driver: "multitenant_saas",
    external_provider: "tillpoint",
    external_product_ref: "pos-standard",
    default_release_version: "2026.11",
    repo_path: "releases/pos",
    is_recurring: true,
    supports_trial: true,
    trial_days: 14,
    enabled_payment_gateways: ["gateway_a", "gateway_b"],
    default_payment_gateway: "gateway_b",
    gwa_product_id_monthly: "pro_monthly123",
    gwa_product_id_yearly: "pro_yearly456",
    price_monthly: 3100,
    price_yearly: 31000,
    fulfillment_config: {
      base_url: "https://provider.example.com",
      onboard_endpoint: "/api/marketplace/onboard",
      status_endpoint: "/api/marketplace/status/{external_reference}",
      suspend_endpoint: "/api/marketplace/suspend",
      cancel_endpoint: "/api/marketplace/cancel",
      auth_mode: "bearer",
      credentials_ref: "pos_provider_token",
      timeout_seconds: 45,
      management: {
        enabled: true,
        base_url: "https://provider.example.com",
        overview_endpoint: "/api/marketplace/admin/overview",
        tenants_endpoint: "/api/marketplace/admin/tenants",
        tenant_details_endpoint: "/api/marketplace/admin/tenants/{tenant}",
        tenant_status_endpoint: "/api/marketplace/admin/tenants/{tenant}/status",
        tenant_subscription_endpoint: "/api/marketplace/admin/tenants/{tenant}/subscription",
        plans_endpoint: "/api/marketplace/admin/plans",
      },
    },
    ...overrides,
  };
}

export function aLicenseProduct(overrides: Partial<ProductInput> = {}): ProductInput {
  return {
    name: `Self-hosted ${unique()}`,
    slug: `self-hosted-${unique()}`,
    status: "published",
    delivery_model: "self_hosted_license",
    fulfillment_driver: "license_download",
    is_recurring: false,
    price_regular: 4900,
    price_extended: 14900,
    fulfillment_config: {
      license_type: "commercial",
      artifact_source: "https://downloads.example.com/app",
      max_activations: 3,
    },
    ...overrides,
  };
}

/** A managed setup delivered by an operations task in the `onboarding` queue, due in `sla_hours`. */
export function aManagedSetupProduct(
  fulfillment: { sla_hours: number; instructions_template: string },
  overrides: Partial<ProductInput> = {},
): ProductInput {
  return {
    name: "Setup Service",
    slug: `setup-${unique()}`,
    status: "published",
    delivery_model: "managed_setup",
    fulfillment_driver: "manual_fulfillment",
    price_regular: 19900,
    fulfillment_config: { queue_id: "onboarding", ...fulfillment },
    ...overrides,
  };
}

/** A dedicated installation that waits for the customer's domain before the team sets it up. */
export function aDedicatedInstallationProduct(overrides: Partial<ProductInput> = {}): ProductInput {
  return {
    name: `Dedicated Books ${unique()}`,
    slug: `dedicated-${unique()}`,
    status: "published",
    delivery_model: "saas_singletenant",
    fulfillment_driver: "singletenant_provisioning",
    is_recurring: true,
    price_monthly: 9900,
    fulfillment_config: {
      server_profile: "std-2",
      resource_limits_profile: "small",
      domain_strategy: "customer_domain",
    },
    ...overrides,
  };
}

export const subscriptionMappings = (monthly: number, yearly: number): PricingMappingInput[] => [
  { payment_type: "subscription", billing_interval: "monthly", price: monthly, is_active: true },
  { payment_type: "subscription", billing_interval: "yearly", price: yearly, is_active: true },
];
