import { describe, expect, test } from "bun:test";
import {
  DELIVERY_MODELS,
  type DeliveryModel,
  FULFILLMENT_DRIVERS,
  type FulfillmentDriver,
} from "../../../domain/catalog/drivers.ts";
import { type PaymentGatewayName, type ProductInput, validateProduct } from "../../../domain/catalog/product.ts";
import { ValidationFailed } from "../../../domain/shared/domain-error.ts";

type Config = Record<string, unknown>;

const VALID_CONFIG: Record<FulfillmentDriver, Config> = {
  multitenant_saas: {
    base_url: "https://provider.example",
    onboard_endpoint: "/api/marketplace/onboard",
    status_endpoint: "/api/marketplace/status",
    auth_mode: "hmac",
    credentials_ref: "tillpoint_hmac",
    timeout_seconds: 30,
  },
  singletenant_provisioning: {
    server_profile: "small-vm",
    resource_limits_profile: "standard",
    domain_strategy: "subdomain",
  },
  license_download: { license_type: "commercial", artifact_source: "https://releases.example/app", max_activations: 3 },
  manual_fulfillment: { queue_id: "ops-setup", sla_hours: 48, instructions_template: "Install and hand over." },
};

const HOME_MODEL: Record<FulfillmentDriver, DeliveryModel> = {
  multitenant_saas: "saas_multitenant",
  singletenant_provisioning: "saas_singletenant",
  license_download: "self_hosted_license",
  manual_fulfillment: "managed_setup",
};

function aProduct(driver: FulfillmentDriver = "multitenant_saas", overrides: Partial<ProductInput> = {}): ProductInput {
  return {
    name: "Tillpoint POS",
    slug: "tillpoint-pos",
    delivery_model: HOME_MODEL[driver],
    fulfillment_driver: driver,
    fulfillment_config: { ...VALID_CONFIG[driver] },
    ...(driver === "multitenant_saas"
      ? { external_provider: "tillpoint", external_product_ref: "pos-pro", is_recurring: true }
      : {}),
    ...overrides,
  };
}

const withConfig = (driver: FulfillmentDriver, config: Config) =>
  aProduct(driver, { fulfillment_config: { ...VALID_CONFIG[driver], ...config } });

const MANAGEMENT = { enabled: true, base_url: "https://admin.provider.example" };

function errorsOf(input: ProductInput): { path: string; code: string | undefined }[] {
  try {
    validateProduct(input);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailed);
    return ((error as ValidationFailed).errors ?? []).map(({ path, code }) => ({ path, code }));
  }
  throw new Error("expected a ValidationFailed");
}

// Written out by hand rather than read from DRIVER_MODELS so a change to the matrix fails here.
const ACCEPTS: Record<DeliveryModel, Record<FulfillmentDriver, boolean>> = {
  saas_multitenant: {
    multitenant_saas: true,
    singletenant_provisioning: false,
    license_download: false,
    manual_fulfillment: true,
  },
  saas_singletenant: {
    multitenant_saas: false,
    singletenant_provisioning: true,
    license_download: false,
    manual_fulfillment: true,
  },
  self_hosted_license: {
    multitenant_saas: false,
    singletenant_provisioning: false,
    license_download: true,
    manual_fulfillment: true,
  },
  self_hosted_download: {
    multitenant_saas: false,
    singletenant_provisioning: false,
    license_download: true,
    manual_fulfillment: true,
  },
  managed_setup: {
    multitenant_saas: false,
    singletenant_provisioning: false,
    license_download: false,
    manual_fulfillment: true,
  },
  hybrid: { multitenant_saas: false, singletenant_provisioning: true, license_download: true, manual_fulfillment: true },
};

const PAIRS = DELIVERY_MODELS.flatMap((model) =>
  FULFILLMENT_DRIVERS.map((driver) => [model, driver, ACCEPTS[model][driver]] as const),
);

describe("delivery model × fulfillment driver", () => {
  test("covers all 24 pairs, the point-of-sale pair among the accepted", () => {
    expect(PAIRS).toHaveLength(24);
    expect(PAIRS).toContainEqual(["saas_multitenant", "multitenant_saas", true]);
  });

  test.each(PAIRS)("%s through %s accepted: %p", (model, driver, accepted) => {
    const input = aProduct(driver, { delivery_model: model });
    if (accepted) expect(validateProduct(input).delivery_model).toBe(model);
    else expect(errorsOf(input)).toEqual([{ path: "/fulfillment_driver", code: "INCOMPATIBLE_DRIVER" }]);
  });
});

const REQUIRED_KEYS: Record<FulfillmentDriver, readonly string[]> = {
  multitenant_saas: ["base_url", "onboard_endpoint", "status_endpoint", "auth_mode", "credentials_ref", "timeout_seconds"],
  singletenant_provisioning: ["server_profile", "resource_limits_profile", "domain_strategy"],
  license_download: ["license_type", "artifact_source", "max_activations"],
  manual_fulfillment: ["queue_id", "sla_hours", "instructions_template"],
};

describe("fulfillment_config", () => {
  test.each(FULFILLMENT_DRIVERS)("the %s builder is valid", (driver) => {
    expect(validateProduct(aProduct(driver)).fulfillment_driver).toBe(driver);
  });

  test.each(FULFILLMENT_DRIVERS.flatMap((driver) => REQUIRED_KEYS[driver].map((key) => [driver, key] as const)))(
    "%s requires %s",
    (driver, key) => {
      const { [key]: _removed, ...config } = VALID_CONFIG[driver];
      expect(errorsOf(aProduct(driver, { fulfillment_config: config }))).toEqual([
        { path: `/fulfillment_config/${key}`, code: "REQUIRED" },
      ]);
    },
  );

  test.each<[string, FulfillmentDriver, Config, string, string]>([
    ["an ftp base_url", "multitenant_saas", { base_url: "ftp://provider.example" }, "base_url", "INVALID_URL"],
    ["a base_url with credentials", "multitenant_saas", { base_url: "https://u:p@x.example" }, "base_url", "INVALID_URL"],
    ["a relative onboard_endpoint", "multitenant_saas", { onboard_endpoint: "api/onboard" }, "onboard_endpoint", "INVALID_PATH"],
    ["a traversing onboard_endpoint", "multitenant_saas", { onboard_endpoint: "/api/../admin" }, "onboard_endpoint", "INVALID_PATH"],
    ["a {tenant} status_endpoint", "multitenant_saas", { status_endpoint: "/x/{tenant}" }, "status_endpoint", "UNKNOWN_PLACEHOLDER"],
    ["basic auth", "multitenant_saas", { auth_mode: "basic" }, "auth_mode", "INVALID_ENUM"],
    ["a zero timeout", "multitenant_saas", { timeout_seconds: 0 }, "timeout_seconds", "OUT_OF_RANGE"],
    ["a 121 s timeout", "multitenant_saas", { timeout_seconds: 121 }, "timeout_seconds", "OUT_OF_RANGE"],
    ["a fractional timeout", "multitenant_saas", { timeout_seconds: 4.5 }, "timeout_seconds", "OUT_OF_RANGE"],
    ["a string timeout", "multitenant_saas", { timeout_seconds: "45" }, "timeout_seconds", "OUT_OF_RANGE"],
    ["an unknown key", "multitenant_saas", { region: "eu" }, "region", "UNKNOWN_KEY"],
    ["a live key as reference", "multitenant_saas", { credentials_ref: "sk_live_abc123" }, "credentials_ref", "INVALID_REFERENCE"],
    ["a bearer header as reference", "multitenant_saas", { credentials_ref: "Bearer xyz" }, "credentials_ref", "INVALID_REFERENCE"],
    ["a JWT as reference", "multitenant_saas", { credentials_ref: "eyJhbGciOi.x" }, "credentials_ref", "INVALID_REFERENCE"],
    ["a reference with a space", "multitenant_saas", { credentials_ref: "my secret" }, "credentials_ref", "INVALID_REFERENCE"],
    [
      "a tenant endpoint without {tenant}",
      "multitenant_saas",
      { management: { ...MANAGEMENT, tenant_details_endpoint: "/tenants/one" } },
      "management/tenant_details_endpoint",
      "MISSING_PLACEHOLDER",
    ],
    ["enabled management without base_url", "multitenant_saas", { management: { enabled: true } }, "management/base_url", "REQUIRED"],
    ["zero activations", "license_download", { max_activations: 0 }, "max_activations", "OUT_OF_RANGE"],
    ["a random domain strategy", "singletenant_provisioning", { domain_strategy: "random" }, "domain_strategy", "INVALID_ENUM"],
  ])("rejects %s", (_label, driver, config, key, code) => {
    expect(errorsOf(withConfig(driver, config))).toEqual([{ path: `/fulfillment_config/${key}`, code }]);
  });

  test.each<[string, Config]>([
    ["a GET status_endpoint with {external_reference}", { status_endpoint: "/api/marketplace/status/{external_reference}" }],
    ["disabled management without base_url", { management: { enabled: false } }],
    ["a full management block", { management: { ...MANAGEMENT, tenant_status_endpoint: "/tenants/{tenant}/status" } }],
  ])("accepts %s", (_label, config) => {
    expect(validateProduct(withConfig("multitenant_saas", config)).fulfillment_config).toEqual({
      ...VALID_CONFIG.multitenant_saas,
      ...config,
    });
  });

  test.each(["api_token", "secret", "password", "api_key", "bearer_token"])("refuses the secret key %s", (key) => {
    const top = withConfig("multitenant_saas", { [key]: "x" });
    const nested = withConfig("multitenant_saas", { management: { ...MANAGEMENT, [key]: "x" } });
    expect(errorsOf(top)).toEqual([{ path: `/fulfillment_config/${key}`, code: "SECRET_NOT_ALLOWED" }]);
    expect(errorsOf(nested)).toEqual([{ path: `/fulfillment_config/management/${key}`, code: "SECRET_NOT_ALLOWED" }]);
  });
});
