/**
 * The fields of Stripe's Product and Price that the sandbox never varies, as Stripe answers them
 * for a product made with a name (and a description, metadata) and a flat per-unit price.
 */
export const PRODUCT_DEFAULTS = {
  default_price: null,
  images: [] as readonly string[],
  marketing_features: [] as readonly never[],
  package_dimensions: null,
  shippable: null,
  statement_descriptor: null,
  tax_code: null,
  tax_details: null,
  type: "service",
  unit_label: null,
  url: null,
} as const;

export const PRICE_DEFAULTS = {
  custom_unit_amount: null,
  tiers_mode: null,
  transform_quantity: null,
} as const;
