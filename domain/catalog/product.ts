import type { FieldError } from "../shared/domain-error.ts";
import { ValidationFailed } from "../shared/errors.ts";
import { controlCharacterErrors } from "../shared/plain-text.ts";
import { validateObject } from "./config-spec.ts";
import {
  DELIVERY_MODELS,
  type DeliveryModel,
  DRIVER_CONFIG_SPECS,
  FULFILLMENT_DRIVERS,
  type FulfillmentDriver,
  isCompatible,
} from "./drivers.ts";
import { isValidPrice } from "./price-range.ts";
import { VARIANTS } from "./variants.ts";

export const PAYMENT_GATEWAYS = ["gateway_a", "gateway_b"] as const;
export type PaymentGatewayName = (typeof PAYMENT_GATEWAYS)[number];
export const PRODUCT_STATUSES = ["draft", "published", "archived"] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/**
 * What an admin defines. Field names are snake_case everywhere, so one name means one thing from
 * the SQL column to the JSON body.
 */
export interface ProductDefinition {
  readonly name: string;
  readonly slug: string;
  readonly description: string;
  readonly status: ProductStatus;
  readonly tags: readonly string[];
  readonly seo_title: string | null;
  readonly seo_description: string | null;
  readonly delivery_model: DeliveryModel;
  readonly fulfillment_driver: FulfillmentDriver;
  readonly external_provider: string | null;
  readonly external_product_ref: string | null;
  readonly default_release_version: string | null;
  readonly repo_path: string | null;
  readonly fulfillment_config: Readonly<Record<string, unknown>>;
  readonly is_recurring: boolean;
  readonly supports_trial: boolean;
  readonly trial_days: number | null;
  readonly enabled_payment_gateways: readonly PaymentGatewayName[];
  readonly default_payment_gateway: PaymentGatewayName;
  readonly gwa_product_id_regular: string | null;
  readonly gwa_product_id_extended: string | null;
  readonly gwa_product_id_monthly: string | null;
  readonly gwa_product_id_yearly: string | null;
  readonly price_regular: number | null;
  readonly price_extended: number | null;
  readonly price_monthly: number | null;
  readonly price_yearly: number | null;
}

export interface Product extends ProductDefinition {
  readonly id: string;
  readonly created_at: Date;
  readonly updated_at: Date;
}

/** What a create or full update may send: optional fields may be left out. */
export type ProductInput = Pick<ProductDefinition, "name" | "slug" | "delivery_model" | "fulfillment_driver"> &
  Partial<Omit<ProductDefinition, "name" | "slug" | "delivery_model" | "fulfillment_driver">>;

export const MAX_TRIAL_DAYS = 365;

/** The longest each text field may be (and how many tags a product may have); the HTTP schema states the same caps. */
export const PRODUCT_LIMITS = {
  name: 200,
  slug: 100,
  description: 20_000,
  seo_title: 200,
  seo_description: 500,
  external_provider: 100,
  external_product_ref: 200,
  default_release_version: 50,
  repo_path: 500,
  tag: 40,
  tags: 20,
  gateway_product_id: 100,
} as const;

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const TAG = new RegExp(`^[a-z0-9][a-z0-9-]{0,${PRODUCT_LIMITS.tag - 1}}$`);
const GATEWAY_PRODUCT_ID = new RegExp(`^[A-Za-z0-9_-]{1,${PRODUCT_LIMITS.gateway_product_id}}$`);

const err = (path: string, code: string, message: string): FieldError => ({ path, code, message });

/** Blank optional text means "not set". */
const nullable = (value: string | null | undefined) =>
  value === undefined || value === null || value.trim() === "" ? null : value.trim();

function checkGateways(enabled: readonly string[], fallback: string | undefined, errors: FieldError[]) {
  if (enabled.length === 0) errors.push(err("/enabled_payment_gateways", "EMPTY", "must name at least one gateway"));
  enabled.forEach((gateway, i) => {
    if (!(PAYMENT_GATEWAYS as readonly string[]).includes(gateway)) {
      errors.push(
        err(`/enabled_payment_gateways/${i}`, "INVALID_ENUM", `must be one of ${PAYMENT_GATEWAYS.join(", ")}`),
      );
    } else if (enabled.indexOf(gateway) !== i) {
      errors.push(err(`/enabled_payment_gateways/${i}`, "DUPLICATE", "is listed twice"));
    }
  });
  if (fallback !== undefined && !enabled.includes(fallback)) {
    errors.push(err("/default_payment_gateway", "NOT_ENABLED", "must be one of enabled_payment_gateways"));
  }
}

function checkTrial(input: ProductInput, isRecurring: boolean, errors: FieldError[]) {
  const days = input.trial_days ?? null;
  if (input.supports_trial) {
    if (!isRecurring)
      errors.push(err("/supports_trial", "TRIAL_REQUIRES_RECURRING", "trials apply to recurring products"));
    if (days === null) errors.push(err("/trial_days", "REQUIRED", "is required when supports_trial is true"));
    else if (!Number.isInteger(days) || days < 1 || days > MAX_TRIAL_DAYS) {
      errors.push(err("/trial_days", "OUT_OF_RANGE", `must be an integer from 1 to ${MAX_TRIAL_DAYS}`));
    }
  } else if (days !== null) {
    errors.push(err("/trial_days", "TRIAL_NOT_SUPPORTED", "must be empty unless supports_trial is true"));
  }
}

function checkDriver(input: ProductInput, isRecurring: boolean, errors: FieldError[]) {
  const model = input.delivery_model;
  const driver = input.fulfillment_driver;
  const knownModel = (DELIVERY_MODELS as readonly string[]).includes(model);
  const knownDriver = (FULFILLMENT_DRIVERS as readonly string[]).includes(driver);
  if (!knownModel) errors.push(err("/delivery_model", "INVALID_ENUM", `must be one of ${DELIVERY_MODELS.join(", ")}`));
  if (!knownDriver) {
    errors.push(err("/fulfillment_driver", "INVALID_ENUM", `must be one of ${FULFILLMENT_DRIVERS.join(", ")}`));
  }
  if (!knownModel || !knownDriver) return;
  if (!isCompatible(model, driver)) {
    errors.push(err("/fulfillment_driver", "INCOMPATIBLE_DRIVER", `cannot deliver the delivery model ${model}`));
  }
  errors.push(...validateObject(DRIVER_CONFIG_SPECS[driver], input.fulfillment_config ?? {}, "/fulfillment_config"));
  if (driver === "multitenant_saas") {
    if (!nullable(input.external_provider)) {
      errors.push(err("/external_provider", "REQUIRED", "is required for multitenant_saas"));
    }
    if (!nullable(input.external_product_ref)) {
      errors.push(err("/external_product_ref", "REQUIRED", "is required for multitenant_saas"));
    }
    if (!isRecurring) {
      errors.push(err("/is_recurring", "MUST_BE_RECURRING", "multitenant_saas products are subscriptions"));
    }
    const management = input.fulfillment_config?.management as Record<string, unknown> | undefined;
    if (management?.enabled === true && !management.base_url) {
      errors.push(err("/fulfillment_config/management/base_url", "REQUIRED", "is required when management is enabled"));
    }
  }
  const config = input.fulfillment_config;
  if (driver === "license_download" && config?.floating === true && (config.heartbeat_seconds ?? null) === null) {
    errors.push(err("/fulfillment_config/heartbeat_seconds", "REQUIRED", "is required when floating"));
  }
}

function checkFields(input: ProductInput, errors: FieldError[]) {
  if (input.name.trim() === "" || input.name.length > PRODUCT_LIMITS.name)
    errors.push(err("/name", "INVALID_TEXT", `must be 1 to ${PRODUCT_LIMITS.name} characters`));
  errors.push(...controlCharacterErrors({ name: input.name, seo_title: input.seo_title }));
  errors.push(
    ...controlCharacterErrors({ description: input.description, seo_description: input.seo_description }, true),
  );
  if (!SLUG.test(input.slug) || input.slug.length > PRODUCT_LIMITS.slug) {
    errors.push(err("/slug", "INVALID_SLUG", "must be lowercase words of a-z and 0-9 joined by single hyphens"));
  }
  const tags = input.tags ?? [];
  if (tags.length > PRODUCT_LIMITS.tags) {
    errors.push(err("/tags", "TOO_MANY", `must hold at most ${PRODUCT_LIMITS.tags} tags`));
  }
  tags.forEach((tag, i) => {
    if (!TAG.test(tag)) {
      errors.push(err(`/tags/${i}`, "INVALID_TAG", `must be 1 to ${PRODUCT_LIMITS.tag} of a-z, 0-9 and -`));
    } else if (tags.indexOf(tag) !== i) errors.push(err(`/tags/${i}`, "DUPLICATE", "is listed twice"));
  });
  for (const variant of VARIANTS) {
    const field = `price_${variant}` as const;
    const price = input[field];
    if (price !== undefined && price !== null && !isValidPrice(price)) {
      errors.push(err(`/${field}`, "INVALID_PRICE", "must be a non-negative integer amount in minor units"));
    }
    const gwa = nullable(input[`gwa_product_id_${variant}`]);
    if (gwa !== null && !GATEWAY_PRODUCT_ID.test(gwa)) {
      errors.push(
        err(
          `/gwa_product_id_${variant}`,
          "INVALID_GATEWAY_ID",
          `must be 1 to ${PRODUCT_LIMITS.gateway_product_id} of A-Z, a-z, 0-9, _ and -`,
        ),
      );
    }
  }
}

/** Validates every rule of a product at once and returns the normalized definition. */
export function validateProduct(input: ProductInput): ProductDefinition {
  const errors: FieldError[] = [];
  const isRecurring = input.is_recurring ?? false;
  const enabled = input.enabled_payment_gateways ?? PAYMENT_GATEWAYS;
  checkFields(input, errors);
  checkDriver(input, isRecurring, errors);
  checkTrial(input, isRecurring, errors);
  checkGateways(enabled, input.default_payment_gateway, errors);
  if (errors.length > 0) throw new ValidationFailed(errors, "The product is not valid.");
  return {
    name: input.name.trim(),
    slug: input.slug,
    description: input.description ?? "",
    status: input.status ?? "draft",
    tags: input.tags ?? [],
    seo_title: nullable(input.seo_title),
    seo_description: nullable(input.seo_description),
    delivery_model: input.delivery_model,
    fulfillment_driver: input.fulfillment_driver,
    external_provider: nullable(input.external_provider),
    external_product_ref: nullable(input.external_product_ref),
    default_release_version: nullable(input.default_release_version),
    repo_path: nullable(input.repo_path),
    fulfillment_config: input.fulfillment_config ?? {},
    is_recurring: isRecurring,
    supports_trial: input.supports_trial ?? false,
    trial_days: input.supports_trial ? (input.trial_days ?? null) : null,
    enabled_payment_gateways: [...enabled],
    default_payment_gateway: input.default_payment_gateway ?? enabled[0] ?? "gateway_a",
    gwa_product_id_regular: nullable(input.gwa_product_id_regular),
    gwa_product_id_extended: nullable(input.gwa_product_id_extended),
    gwa_product_id_monthly: nullable(input.gwa_product_id_monthly),
    gwa_product_id_yearly: nullable(input.gwa_product_id_yearly),
    price_regular: input.price_regular ?? null,
    price_extended: input.price_extended ?? null,
    price_monthly: input.price_monthly ?? null,
    price_yearly: input.price_yearly ?? null,
  };
}
