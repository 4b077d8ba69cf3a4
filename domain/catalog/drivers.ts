import { assertObject, type ObjectOf, type ObjectSpec } from "./config-spec.ts";

export const DELIVERY_MODELS = [
  "saas_multitenant",
  "saas_singletenant",
  "self_hosted_license",
  "self_hosted_download",
  "managed_setup",
  "hybrid",
] as const;
export type DeliveryModel = (typeof DELIVERY_MODELS)[number];

export const FULFILLMENT_DRIVERS = [
  "multitenant_saas",
  "singletenant_provisioning",
  "license_download",
  "manual_fulfillment",
] as const;
export type FulfillmentDriver = (typeof FULFILLMENT_DRIVERS)[number];

/**
 * Which drivers may deliver which delivery model. Manual fulfillment can deliver anything (a
 * person can always do the work); each automated driver delivers only the models it understands.
 * `hybrid` (self-hosted software with a managed option) may go through a license, a dedicated
 * installation or a person.
 */
export const DRIVER_MODELS: Readonly<Record<FulfillmentDriver, readonly DeliveryModel[]>> = {
  multitenant_saas: ["saas_multitenant"],
  singletenant_provisioning: ["saas_singletenant", "hybrid"],
  license_download: ["self_hosted_license", "self_hosted_download", "hybrid"],
  manual_fulfillment: DELIVERY_MODELS,
};

export function isCompatible(model: DeliveryModel, driver: FulfillmentDriver): boolean {
  return DRIVER_MODELS[driver].includes(model);
}

const path = <R extends boolean>(description: string, required: R, placeholders: readonly string[] = []) =>
  ({ kind: "path", required, description, placeholders }) as const;
const tenantPath = (description: string) =>
  ({ kind: "path", required: false, description, placeholders: ["tenant"], requiredPlaceholder: "tenant" }) as const;

export const MANAGEMENT_SPEC = {
  enabled: { kind: "boolean", required: true, description: "Enables the provider admin-control calls." },
  base_url: {
    kind: "url",
    required: false,
    description: "Provider address for management calls (required when enabled).",
  },
  overview_endpoint: path("Platform overview.", false),
  tenants_endpoint: path("Tenant list.", false),
  tenant_details_endpoint: tenantPath("One tenant; must contain {tenant}."),
  tenant_status_endpoint: tenantPath("Tenant status; must contain {tenant}."),
  tenant_subscription_endpoint: tenantPath("Tenant subscription; must contain {tenant}."),
  plans_endpoint: path("Plans list.", false),
} as const satisfies ObjectSpec;

/**
 * The `fulfillment_config` each driver requires: what the driver needs to deliver without asking
 * anyone, and never a secret (a `credentials_ref` names a stored one). Declared `as const` so the
 * configuration types below are derived from it.
 */
const CONFIG_SPECS = {
  multitenant_saas: {
    base_url: { kind: "url", required: true, description: "Provider base address." },
    onboard_endpoint: path("Path of the onboarding operation.", true),
    status_endpoint: path(
      "Path of the status operation: POST form without a parameter, or GET form with {external_reference}.",
      true,
      ["external_reference"],
    ),
    suspend_endpoint: path("Path of the suspend operation.", false),
    cancel_endpoint: path("Path of the cancel operation.", false),
    auth_mode: {
      kind: "enum",
      values: ["bearer", "hmac"],
      required: true,
      description: "How calls are authenticated.",
    },
    credentials_ref: { kind: "reference", required: true, description: "Name of the stored secret; never the secret." },
    timeout_seconds: { kind: "integer", min: 1, max: 120, required: true, description: "Time-out of provider calls." },
    management: { kind: "object", fields: MANAGEMENT_SPEC, required: false, description: "Admin-control block." },
  },
  singletenant_provisioning: {
    server_profile: { kind: "text", maxLength: 100, required: true, description: "Server template or profile id." },
    resource_limits_profile: { kind: "text", maxLength: 100, required: true, description: "Resource limits profile." },
    domain_strategy: {
      kind: "enum",
      values: ["subdomain", "customer_domain"],
      required: true,
      description: "subdomain: we assign one; customer_domain: the customer supplies it.",
    },
    provisioner_url: { kind: "url", required: false, description: "Provisioner endpoint that completes jobs, if any." },
  },
  license_download: {
    license_type: { kind: "text", maxLength: 50, required: true, description: "License template or type." },
    artifact_source: { kind: "url", required: true, description: "Where release artifacts are downloaded from." },
    max_activations: {
      kind: "integer",
      min: 1,
      max: 10_000,
      required: true,
      description: "Machines per seat bought; a floating license's pool size.",
    },
    floating: {
      kind: "boolean",
      required: false,
      description: "Concurrent use: a machine that stops sending heartbeats gives its seat back to the pool.",
    },
    heartbeat_seconds: {
      kind: "integer",
      min: 60,
      max: 604_800,
      required: false,
      description: "How often a machine checks in (required when floating).",
    },
    offline_checkout_max_days: {
      kind: "integer",
      min: 0,
      max: 365,
      required: false,
      description: "Longest offline license file a machine may check out; 0 (the default) disables it.",
    },
  },
  manual_fulfillment: {
    queue_id: { kind: "text", maxLength: 100, required: true, description: "Internal team queue id." },
    sla_hours: { kind: "integer", min: 1, max: 24 * 90, required: true, description: "Hours until the task is due." },
    instructions_template: {
      kind: "text",
      maxLength: 10_000,
      multiline: true,
      required: true,
      description: "Default instructions for the operations task.",
    },
  },
} as const satisfies Readonly<Record<FulfillmentDriver, ObjectSpec>>;

/** The same specs, read as plain `ObjectSpec`s (any key may be looked up); the types come from `CONFIG_SPECS`. */
export const DRIVER_CONFIG_SPECS: Readonly<Record<FulfillmentDriver, ObjectSpec>> = CONFIG_SPECS;

/** `fulfillment_config` of a product of `driver`, once its spec accepted it. */
export type DriverConfig<D extends FulfillmentDriver> = ObjectOf<(typeof CONFIG_SPECS)[D]>;
export type ManagementConfig = ObjectOf<typeof MANAGEMENT_SPEC>;
export type MultitenantSaasConfig = DriverConfig<"multitenant_saas">;

/**
 * The `fulfillment_config` of a product that uses `driver`, typed by that driver's spec; undefined
 * when the product uses another driver. A configuration that does not meet the spec (one saved
 * before the spec changed) is refused with the same errors as on save, at `/fulfillment_config`.
 */
export function configOf<D extends FulfillmentDriver>(
  product: { readonly fulfillment_driver: string; readonly fulfillment_config: unknown },
  driver: D,
): DriverConfig<D> | undefined {
  if (product.fulfillment_driver !== driver) return undefined;
  const config = product.fulfillment_config;
  assertObject<(typeof CONFIG_SPECS)[D]>(
    CONFIG_SPECS[driver],
    config,
    "/fulfillment_config",
    "The fulfillment configuration is not valid.",
  );
  return config;
}

/**
 * The provider contract's default paths, used for any operation path the configuration leaves out,
 * so a provider that follows the contract needs no path configured.
 */
export const DEFAULT_PROVIDER_PATHS = {
  suspend_endpoint: "/api/marketplace/suspend",
  cancel_endpoint: "/api/marketplace/cancel",
  upgrade_endpoint: "/api/marketplace/upgrade",
  overview_endpoint: "/api/marketplace/admin/overview",
  tenants_endpoint: "/api/marketplace/admin/tenants",
  tenant_details_endpoint: "/api/marketplace/admin/tenants/{tenant}",
  tenant_status_endpoint: "/api/marketplace/admin/tenants/{tenant}/status",
  tenant_subscription_endpoint: "/api/marketplace/admin/tenants/{tenant}/subscription",
  plans_endpoint: "/api/marketplace/admin/plans",
} as const;

export const MANAGEMENT_VIEWS = [
  "overview",
  "tenants",
  "tenant",
  "tenant_status",
  "tenant_subscription",
  "plans",
] as const;
export type ManagementView = (typeof MANAGEMENT_VIEWS)[number];

const VIEW_ENDPOINT = {
  overview: "overview_endpoint",
  tenants: "tenants_endpoint",
  tenant: "tenant_details_endpoint",
  tenant_status: "tenant_status_endpoint",
  tenant_subscription: "tenant_subscription_endpoint",
  plans: "plans_endpoint",
} as const satisfies Record<ManagementView, keyof typeof DEFAULT_PROVIDER_PATHS>;

/** The provider path of a management view: the configured template or the default path, `{tenant}` filled in and encoded. */
export function managementPath(management: ManagementConfig, view: ManagementView, tenant = ""): string {
  const key = VIEW_ENDPOINT[view];
  const template = management[key] ?? DEFAULT_PROVIDER_PATHS[key];
  return template.replaceAll("{tenant}", encodeURIComponent(tenant));
}
