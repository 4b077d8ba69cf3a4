import type { FieldError } from "../shared/domain-error.ts";
import { ValidationFailed } from "../shared/errors.ts";
import { isValidPrice } from "./price-range.ts";
import type { PaymentGatewayName, ProductDefinition } from "./product.ts";
import { VARIANTS, type Variant } from "./variants.ts";

export const PAYMENT_TYPES = ["one_time", "subscription"] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];
/** The subscription variants: a subscription's variant is its billing interval. */
export const BILLING_INTERVALS = ["monthly", "yearly"] as const satisfies readonly Variant[];
export type BillingInterval = (typeof BILLING_INTERVALS)[number];
/** Where a resolved price comes from: an active pricing mapping, or the product's base price field. */
export const PRICE_SOURCES = ["mapping", "base"] as const;
export type PriceSource = (typeof PRICE_SOURCES)[number];

export const MAX_LICENSE_TYPE_LENGTH = 40;
const LICENSE_TYPE = new RegExp(`^[a-z][a-z0-9_-]{0,${MAX_LICENSE_TYPE_LENGTH - 1}}$`);

export interface PricingMappingInput {
  readonly payment_type: PaymentType;
  readonly license_type?: string | null;
  readonly billing_interval?: BillingInterval | null;
  readonly price: number;
  readonly is_active: boolean;
}

export interface PricingMapping {
  readonly id: string;
  readonly product_id: string;
  readonly payment_type: PaymentType;
  readonly license_type: string | null;
  readonly billing_interval: BillingInterval | null;
  readonly price: number;
  readonly is_active: boolean;
}

type MappingLike = Pick<PricingMapping, "payment_type" | "license_type" | "billing_interval">;

/** Which variant a mapping prices, if any: a one_time mapping its license type, a subscription its interval. */
export function variantOf(mapping: MappingLike): Variant | undefined {
  if (mapping.payment_type === "one_time") {
    if (mapping.license_type === "regular") return "regular";
    if (mapping.license_type === "extended") return "extended";
    return undefined;
  }
  return mapping.billing_interval ?? undefined;
}

export function paymentTypeOf(variant: Variant): PaymentType {
  return variant === "regular" || variant === "extended" ? "one_time" : "subscription";
}

type BillingProfile = Pick<ProductDefinition, "is_recurring" | "fulfillment_driver">;

/**
 * How a product may be billed. A product that is not recurring sells one-time licenses only. A
 * recurring product sells subscriptions and may also sell one-time licenses, except through
 * multitenant_saas: a hosted tenant exists only as long as its subscription does.
 */
export function allowedPaymentTypes(product: BillingProfile): readonly PaymentType[] {
  if (!product.is_recurring) return ["one_time"];
  return product.fulfillment_driver === "multitenant_saas" ? ["subscription"] : ["subscription", "one_time"];
}

/** The variants a product can be bought as, in display order. */
export function variantsFor(product: BillingProfile): readonly Variant[] {
  const types = allowedPaymentTypes(product);
  return VARIANTS.filter((variant) => types.includes(paymentTypeOf(variant)));
}

type BasePrices = Pick<ProductDefinition, "price_regular" | "price_extended" | "price_monthly" | "price_yearly">;

export interface ResolvedPrice {
  readonly variant: Variant;
  readonly price: number;
  readonly source: PriceSource;
  readonly mapping?: MappingLike;
}

/**
 * The one price rule used by the catalog, checkout and gateway sync: an active mapping
 * of the variant first; the product's base price field only when no mapping price exists;
 * inactive mappings never match. Undefined means the variant is not for sale.
 */
export function resolvePrice(
  product: BasePrices,
  mappings: readonly (MappingLike & Pick<PricingMapping, "price" | "is_active">)[],
  variant: Variant,
): ResolvedPrice | undefined {
  const mapping = mappings.find((m) => m.is_active && variantOf(m) === variant);
  if (mapping) return { variant, price: mapping.price, source: "mapping", mapping };
  const base = product[`price_${variant}`];
  return base === null ? undefined : { variant, price: base, source: "base" };
}

/**
 * Billing must agree with the product and its driver: the payment type must be one
 * `allowedPaymentTypes` permits; a subscription names its billing interval; a one_time mapping
 * names its license type and no interval. At most one active mapping may price each variant.
 */
export function validateMappings(
  product: BillingProfile,
  mappings: readonly PricingMappingInput[],
): PricingMappingInput[] {
  const errors: FieldError[] = [];
  const activeKeys = new Map<string, number>();
  const allowed = allowedPaymentTypes(product);
  mappings.forEach((m, i) => {
    const at = (field: string) => `/mappings/${i}/${field}`;
    const license = m.license_type ?? null;
    const interval = m.billing_interval ?? null;
    if (!allowed.includes(m.payment_type)) {
      errors.push({
        path: at("payment_type"),
        code: "PAYMENT_TYPE_MISMATCH",
        message: product.is_recurring
          ? `must be subscription: ${product.fulfillment_driver} products are sold as subscriptions only`
          : "must be one_time: the product is not recurring",
      });
    }
    if (m.payment_type === "one_time") {
      if (license === null)
        errors.push({ path: at("license_type"), code: "REQUIRED", message: "is required for one_time" });
      if (interval !== null) {
        errors.push({ path: at("billing_interval"), code: "NOT_ALLOWED", message: "must be empty for one_time" });
      }
    } else if (interval === null) {
      errors.push({ path: at("billing_interval"), code: "REQUIRED", message: "is required for subscription" });
    }
    if (license !== null && !LICENSE_TYPE.test(license)) {
      errors.push({
        path: at("license_type"),
        code: "INVALID_LICENSE_TYPE",
        message: `must be 1 to ${MAX_LICENSE_TYPE_LENGTH} of a-z, 0-9, _ and -`,
      });
    }
    if (!isValidPrice(m.price)) {
      errors.push({
        path: at("price"),
        code: "INVALID_PRICE",
        message: "must be a non-negative integer in minor units",
      });
    }
    if (!m.is_active) return;
    const key = m.payment_type === "one_time" ? `one_time:${license}` : `subscription:${interval}`;
    const first = activeKeys.get(key);
    if (first !== undefined) {
      errors.push({
        path: at("is_active"),
        code: "DUPLICATE_ACTIVE_VARIANT",
        message: `mapping ${first} is already the active mapping for this variant`,
      });
    } else activeKeys.set(key, i);
  });
  if (errors.length > 0) throw new ValidationFailed(errors, "The pricing mappings are not valid; nothing was saved.");
  return mappings.map((m) => ({
    payment_type: m.payment_type,
    license_type: m.license_type ?? null,
    billing_interval: m.billing_interval ?? null,
    price: m.price,
    is_active: m.is_active,
  }));
}

export interface CheckoutVariant {
  readonly variant: Variant;
  readonly payment_type: PaymentType;
  readonly license_type?: string;
  readonly billing_interval?: BillingInterval;
  readonly price: number;
  readonly currency: string;
}

export interface CheckoutOptions {
  readonly variants: readonly CheckoutVariant[];
  readonly payment_gateways: readonly PaymentGatewayName[];
  readonly default_payment_gateway: PaymentGatewayName;
  readonly trial_days: number | null;
}

/** What a customer is offered: each purchasable variant with its resolved price, gateways and trial. */
export function checkoutOptions(
  product: ProductDefinition,
  mappings: readonly PricingMapping[],
  currency: string,
): CheckoutOptions {
  const variants: CheckoutVariant[] = [];
  for (const variant of variantsFor(product)) {
    const resolved = resolvePrice(product, mappings, variant);
    if (!resolved) continue;
    const license = variant === "regular" || variant === "extended" ? variant : resolved.mapping?.license_type;
    variants.push({
      variant,
      payment_type: paymentTypeOf(variant),
      ...(license ? { license_type: license } : {}),
      ...(variant === "monthly" || variant === "yearly" ? { billing_interval: variant } : {}),
      price: resolved.price,
      currency,
    });
  }
  return {
    variants,
    payment_gateways: product.enabled_payment_gateways,
    default_payment_gateway: product.default_payment_gateway,
    trial_days: product.supports_trial ? product.trial_days : null,
  };
}
