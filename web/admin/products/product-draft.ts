import type { Schemas } from "../../shared/api.ts";
import { type ConfigSchema, keepSchemaKeys } from "./config-schema.ts";

export type Product = Schemas["AdminProduct"];
export type ProductInput = Schemas["ProductInput"];
export type Gateway = Schemas["PaymentGateway"];
export type DriverDescription = Schemas["DriverDescription"];

export const GATEWAYS: readonly Gateway[] = ["gateway_a", "gateway_b"];
export const PRICE_FIELDS = ["price_regular", "price_extended", "price_monthly", "price_yearly"] as const;
export type PriceField = (typeof PRICE_FIELDS)[number];

/** What the editor holds: the fields a person edits, as the inputs show them. */
export interface ProductDraft {
  readonly name: string;
  readonly slug: string;
  readonly description: string;
  readonly status: Schemas["ProductStatus"];
  readonly delivery_model: string;
  readonly fulfillment_driver: string;
  readonly external_provider: string;
  readonly external_product_ref: string;
  readonly fulfillment_config: Readonly<Record<string, unknown>>;
  readonly is_recurring: boolean;
  readonly supports_trial: boolean;
  readonly trial_days: number | null;
  readonly enabled_payment_gateways: readonly Gateway[];
  readonly default_payment_gateway: Gateway;
  readonly price_regular: number | null;
  readonly price_extended: number | null;
  readonly price_monthly: number | null;
  readonly price_yearly: number | null;
}

/** Every delivery model some driver delivers, in the order the API lists them. */
export const deliveryModels = (drivers: readonly DriverDescription[]) => [
  ...new Set(drivers.flatMap((d) => d.delivery_models)),
];

export const driversFor = (drivers: readonly DriverDescription[], model: string) =>
  drivers.filter((d) => (d.delivery_models as readonly string[]).includes(model));

export function emptyDraft(drivers: readonly DriverDescription[]): ProductDraft {
  const model = deliveryModels(drivers)[0] ?? "";
  return {
    name: "",
    slug: "",
    description: "",
    status: "draft",
    delivery_model: model,
    fulfillment_driver: driversFor(drivers, model)[0]?.driver ?? "",
    external_provider: "",
    external_product_ref: "",
    fulfillment_config: {},
    is_recurring: false,
    supports_trial: false,
    trial_days: null,
    enabled_payment_gateways: [...GATEWAYS],
    default_payment_gateway: "gateway_a",
    price_regular: null,
    price_extended: null,
    price_monthly: null,
    price_yearly: null,
  };
}

export const draftOf = (product: Product): ProductDraft => ({
  name: product.name,
  slug: product.slug,
  description: product.description,
  status: product.status,
  delivery_model: product.delivery_model,
  fulfillment_driver: product.fulfillment_driver,
  external_provider: product.external_provider ?? "",
  external_product_ref: product.external_product_ref ?? "",
  fulfillment_config: product.fulfillment_config,
  is_recurring: product.is_recurring,
  supports_trial: product.supports_trial,
  trial_days: product.trial_days,
  enabled_payment_gateways: product.enabled_payment_gateways,
  default_payment_gateway: product.default_payment_gateway,
  price_regular: product.price_regular,
  price_extended: product.price_extended,
  price_monthly: product.price_monthly,
  price_yearly: product.price_yearly,
});

const blankToNull = (value: string) => (value.trim() === "" ? null : value);

/** The definition to send; only the chosen driver's keys of the configuration go with it. */
export function inputOf(draft: ProductDraft, driver: DriverDescription | undefined): ProductInput {
  return {
    ...draft,
    enabled_payment_gateways: [...draft.enabled_payment_gateways],
    external_provider: blankToNull(draft.external_provider),
    external_product_ref: blankToNull(draft.external_product_ref),
    trial_days: draft.supports_trial ? draft.trial_days : null,
    fulfillment_config: driver
      ? keepSchemaKeys(driver.config_schema as ConfigSchema, draft.fulfillment_config)
      : draft.fulfillment_config,
  };
}

/**
 * A saved product's fields the editor does not show. A save replaces the whole definition, so
 * they go back as stored now (a gateway sync may have changed them since the page opened).
 */
export const fieldsBesideEditor = (product: Product) => ({
  tags: product.tags,
  seo_title: product.seo_title,
  seo_description: product.seo_description,
  default_release_version: product.default_release_version,
  repo_path: product.repo_path,
  gwa_product_id_regular: product.gwa_product_id_regular,
  gwa_product_id_extended: product.gwa_product_id_extended,
  gwa_product_id_monthly: product.gwa_product_id_monthly,
  gwa_product_id_yearly: product.gwa_product_id_yearly,
});
