import { describe, expect, test } from "bun:test";
import {
  allowedPaymentTypes,
  checkoutOptions,
  type PaymentType,
  type PricingMapping,
  type PricingMappingInput,
  resolvePrice,
  validateMappings,
  variantOf,
  variantsFor,
} from "../../../domain/catalog/pricing.ts";
import type { ProductDefinition } from "../../../domain/catalog/product.ts";
import type { Variant } from "../../../domain/catalog/variants.ts";
import { ValidationFailed } from "../../../domain/shared/errors.ts";

function aProduct(overrides: Partial<ProductDefinition> = {}): ProductDefinition {
  return {
    name: "Tillpoint Server",
    slug: "tillpoint-server",
    description: "",
    status: "published",
    tags: [],
    seo_title: null,
    seo_description: null,
    delivery_model: "self_hosted_license",
    fulfillment_driver: "license_download",
    external_provider: null,
    external_product_ref: null,
    default_release_version: null,
    repo_path: null,
    fulfillment_config: {},
    is_recurring: true,
    supports_trial: false,
    trial_days: null,
    enabled_payment_gateways: ["gateway_a", "gateway_b"],
    default_payment_gateway: "gateway_a",
    gwa_product_id_regular: null,
    gwa_product_id_extended: null,
    gwa_product_id_monthly: null,
    gwa_product_id_yearly: null,
    price_regular: null,
    price_extended: null,
    price_monthly: null,
    price_yearly: null,
    ...overrides,
  };
}

function aMapping(overrides: Partial<PricingMapping> = {}): PricingMapping {
  return {
    id: "mapping-1",
    product_id: "product-1",
    payment_type: "one_time",
    license_type: "regular",
    billing_interval: null,
    price: 4900,
    is_active: true,
    ...overrides,
  };
}

const MAPPING_FOR: Record<Variant, Partial<PricingMapping>> = {
  regular: { payment_type: "one_time", license_type: "regular" },
  extended: { payment_type: "one_time", license_type: "extended" },
  monthly: { payment_type: "subscription", license_type: null, billing_interval: "monthly" },
  yearly: { payment_type: "subscription", license_type: null, billing_interval: "yearly" },
};

const BASE_PRICES = { price_regular: 100, price_extended: 200, price_monthly: 10, price_yearly: 90 };
const NO_PRICES = { price_regular: null, price_extended: null, price_monthly: null, price_yearly: null };

function errorsOf(attempt: () => unknown): { path: string; code: string | undefined }[] {
  try {
    attempt();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailed);
    return ((error as ValidationFailed).errors ?? []).map(({ path, code }) => ({ path, code }));
  }
  throw new Error("expected a ValidationFailed");
}

describe("resolvePrice", () => {
  test.each<[string, Variant]>([
    ["Regular", "regular"],
    ["Extended", "extended"],
    ["Monthly", "monthly"],
    ["Yearly", "yearly"],
  ])("%s: the active mapping wins over the base field", (_row, variant) => {
    const mapping = aMapping({ ...MAPPING_FOR[variant], price: 7777 });
    expect(variantOf(mapping)).toBe(variant);
    expect(resolvePrice(BASE_PRICES, [mapping], variant)).toEqual({ variant, price: 7777, source: "mapping", mapping });
  });

  test.each<Variant>(["regular", "extended", "monthly", "yearly"])("%s falls back to the base field", (variant) => {
    const other = variant === "regular" ? "yearly" : "regular";
    const unrelated = aMapping(MAPPING_FOR[other]);
    expect(resolvePrice(BASE_PRICES, [unrelated], variant)).toEqual({
      variant,
      price: BASE_PRICES[`price_${variant}`],
      source: "base",
    });
    expect(resolvePrice(NO_PRICES, [unrelated], variant)).toBeUndefined();
  });

  test("an inactive mapping never matches", () => {
    const inactive = aMapping({ price: 1, is_active: false });
    expect(resolvePrice(BASE_PRICES, [inactive], "regular")).toEqual({
      variant: "regular",
      price: 100,
      source: "base",
    });
    expect(resolvePrice(NO_PRICES, [inactive], "regular")).toBeUndefined();
  });

  test("a license type other than regular or extended prices no variant", () => {
    const enterprise = aMapping({ license_type: "enterprise" });
    expect(variantOf(enterprise)).toBeUndefined();
    for (const variant of ["regular", "extended", "monthly", "yearly"] as const) {
      expect(resolvePrice(NO_PRICES, [enterprise], variant)).toBeUndefined();
    }
  });
});

describe("what a product can be bought as", () => {
  test.each<[string, ProductDefinition, PaymentType[], Variant[]]>([
    ["one-time", aProduct({ is_recurring: false }), ["one_time"], ["regular", "extended"]],
    [
      "recurring multitenant_saas",
      aProduct({ fulfillment_driver: "multitenant_saas" }),
      ["subscription"],
      ["monthly", "yearly"],
    ],
    [
      "recurring license_download",
      aProduct({ fulfillment_driver: "license_download" }),
      ["one_time", "subscription"],
      ["regular", "extended", "monthly", "yearly"],
    ],
  ])("a %s product", (_label, product, types, variants) => {
    expect([...allowedPaymentTypes(product)].sort()).toEqual(types);
    expect(variantsFor(product)).toEqual(variants);
  });
});

const oneTime = (overrides: Partial<PricingMappingInput> = {}): PricingMappingInput => ({
  payment_type: "one_time",
  license_type: "regular",
  price: 4900,
  is_active: true,
  ...overrides,
});
const monthly = (overrides: Partial<PricingMappingInput> = {}): PricingMappingInput => ({
  payment_type: "subscription",
  billing_interval: "monthly",
  price: 900,
  is_active: true,
  ...overrides,
});

describe("validateMappings", () => {
  const recurringLicense = aProduct();
  const oneTimeProduct = aProduct({ is_recurring: false });
  const saas = aProduct({ fulfillment_driver: "multitenant_saas", delivery_model: "saas_multitenant" });

  test.each<[string, string, PricingMappingInput[]]>([
    ["1/license_type", "REQUIRED", [monthly(), oneTime({ license_type: null })]],
    ["0/billing_interval", "NOT_ALLOWED", [oneTime({ billing_interval: "yearly" })]],
    ["0/billing_interval", "REQUIRED", [monthly({ billing_interval: null })]],
    ["1/is_active", "DUPLICATE_ACTIVE_VARIANT", [oneTime(), oneTime({ price: 1 })]],
    ["0/price", "INVALID_PRICE", [oneTime({ price: -1 })]],
    ["0/price", "INVALID_PRICE", [oneTime({ price: 49.5 })]],
    ["0/license_type", "INVALID_LICENSE_TYPE", [oneTime({ license_type: "Bad Type" })]],
  ])("reports /mappings/%s as %s", (at, code, mappings) => {
    expect(errorsOf(() => validateMappings(recurringLicense, mappings))).toEqual([{ path: `/mappings/${at}`, code }]);
  });

  test.each<[string, ProductDefinition, PricingMappingInput[]]>([
    ["a subscription on a one-time product", oneTimeProduct, [oneTime(), monthly()]],
    ["a one_time mapping on multitenant_saas", saas, [monthly(), oneTime()]],
  ])("refuses %s", (_label, product, mappings) => {
    expect(errorsOf(() => validateMappings(product, mappings))).toEqual([
      { path: "/mappings/1/payment_type", code: "PAYMENT_TYPE_MISMATCH" },
    ]);
  });

  test("allows an inactive mapping beside the active one for the same variant", () => {
    const mappings = [oneTime({ is_active: false, price: 3900 }), oneTime()];
    expect(validateMappings(recurringLicense, mappings).map((m) => m.is_active)).toEqual([false, true]);
  });

  test("returns normalized mappings", () => {
    expect(validateMappings(recurringLicense, [oneTime(), monthly()])).toEqual([
      { payment_type: "one_time", license_type: "regular", billing_interval: null, price: 4900, is_active: true },
      { payment_type: "subscription", license_type: null, billing_interval: "monthly", price: 900, is_active: true },
    ]);
  });
});

describe("checkoutOptions", () => {
  test("offers each priced variant with its currency, gateways and trial", () => {
    const product = aProduct({
      supports_trial: true,
      trial_days: 14,
      enabled_payment_gateways: ["gateway_b", "gateway_a"],
      default_payment_gateway: "gateway_b",
      price_yearly: 9000,
    });
    const mappings = [aMapping({ price: 4900 }), aMapping({ ...MAPPING_FOR.monthly, price: 900 })];
    expect(checkoutOptions(product, mappings, "EUR")).toStrictEqual({
      variants: [
        { variant: "regular", payment_type: "one_time", license_type: "regular", price: 4900, currency: "EUR" },
        { variant: "monthly", payment_type: "subscription", billing_interval: "monthly", price: 900, currency: "EUR" },
        { variant: "yearly", payment_type: "subscription", billing_interval: "yearly", price: 9000, currency: "EUR" },
      ],
      payment_gateways: ["gateway_b", "gateway_a"],
      default_payment_gateway: "gateway_b",
      trial_days: 14,
    });
  });

  test("offers no trial when the product does not support one", () => {
    const product = aProduct({ supports_trial: false, trial_days: 7, price_extended: 100 });
    const options = checkoutOptions(product, [], "USD");
    expect(options.trial_days).toBeNull();
    expect(options.variants).toEqual([
      { variant: "extended", payment_type: "one_time", license_type: "extended", price: 100, currency: "USD" },
    ]);
  });
});
