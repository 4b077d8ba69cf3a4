import { t } from "elysia";
import { DELIVERY_MODELS, FULFILLMENT_DRIVERS } from "../../domain/catalog/drivers.ts";
import { PAYMENT_GATEWAYS, PRODUCT_STATUSES } from "../../domain/catalog/product.ts";
import { named } from "./api-model.ts";
import { Int, QueryInt } from "./schema-types.ts";

/**
 * A union of literals. Elysia fills an absent optional `t.UnionEnum` query parameter with the
 * enum's first value, which turned "no filter" into a filter; plain literal unions do not.
 */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return t.Union(values.map((v) => t.Literal(v))) as unknown as ReturnType<typeof t.UnionEnum<T>>;
}

export const DeliveryModelSchema = named("DeliveryModel", oneOf(DELIVERY_MODELS));
export const DriverSchema = named("FulfillmentDriver", oneOf(FULFILLMENT_DRIVERS));
export const GatewaySchema = named("PaymentGateway", oneOf(PAYMENT_GATEWAYS));
export const StatusSchema = named("ProductStatus", oneOf(PRODUCT_STATUSES));
export const VariantSchema = named("Variant", oneOf(["regular", "extended", "monthly", "yearly"]));
export const PaymentTypeSchema = named("PaymentType", oneOf(["one_time", "subscription"]));
export const BillingIntervalSchema = named("BillingInterval", oneOf(["monthly", "yearly"]));
const Price = t.Nullable(Int({ minimum: 0, description: "Minor units of MARKETPLACE_CURRENCY" }));
const OptionalText = (maxLength: number) => t.Optional(t.Nullable(t.String({ maxLength })));

/** Types only; the domain checks every cross-field rule and the driver's configuration. */
export const ProductInputSchema = named(
  "ProductInput",
  t.Object(
    {
      name: t.String({ maxLength: 200 }),
      slug: t.String({ maxLength: 100 }),
      description: t.Optional(t.String({ maxLength: 20_000 })),
      status: t.Optional(StatusSchema),
      tags: t.Optional(t.Array(t.String({ maxLength: 40 }), { maxItems: 20 })),
      seo_title: OptionalText(200),
      seo_description: OptionalText(500),
      delivery_model: t.String({ maxLength: 50 }),
      fulfillment_driver: t.String({ maxLength: 50 }),
      external_provider: OptionalText(100),
      external_product_ref: OptionalText(200),
      default_release_version: OptionalText(50),
      repo_path: OptionalText(500),
      fulfillment_config: t.Optional(t.Record(t.String(), t.Unknown())),
      is_recurring: t.Optional(t.Boolean()),
      supports_trial: t.Optional(t.Boolean()),
      trial_days: t.Optional(t.Nullable(Int())),
      enabled_payment_gateways: t.Optional(t.Array(t.String({ maxLength: 20 }), { maxItems: 10 })),
      default_payment_gateway: t.Optional(t.String({ maxLength: 20 })),
      gwa_product_id_regular: OptionalText(100),
      gwa_product_id_extended: OptionalText(100),
      gwa_product_id_monthly: OptionalText(100),
      gwa_product_id_yearly: OptionalText(100),
      price_regular: t.Optional(Price),
      price_extended: t.Optional(Price),
      price_monthly: t.Optional(Price),
      price_yearly: t.Optional(Price),
    },
    { additionalProperties: false },
  ),
);

export const CheckoutOptionsSchema = named(
  "CheckoutOptions",
  t.Object({
    variants: t.Array(
      named(
        "CheckoutVariant",
        t.Object({
          variant: VariantSchema,
          payment_type: PaymentTypeSchema,
          license_type: t.Optional(t.String()),
          billing_interval: t.Optional(BillingIntervalSchema),
          price: Int({ description: "Minor units of `currency`" }),
          currency: t.String(),
        }),
      ),
    ),
    payment_gateways: t.Array(GatewaySchema),
    default_payment_gateway: GatewaySchema,
    trial_days: t.Nullable(Int()),
  }),
);

export const AdminProductSchema = named(
  "AdminProduct",
  t.Object({
    id: t.String({ format: "uuid" }),
    name: t.String(),
    slug: t.String(),
    description: t.String(),
    status: StatusSchema,
    tags: t.Array(t.String()),
    seo_title: t.Nullable(t.String()),
    seo_description: t.Nullable(t.String()),
    delivery_model: DeliveryModelSchema,
    fulfillment_driver: DriverSchema,
    external_provider: t.Nullable(t.String()),
    external_product_ref: t.Nullable(t.String()),
    default_release_version: t.Nullable(t.String()),
    repo_path: t.Nullable(t.String()),
    fulfillment_config: t.Record(t.String(), t.Unknown()),
    is_recurring: t.Boolean(),
    supports_trial: t.Boolean(),
    trial_days: t.Nullable(Int()),
    enabled_payment_gateways: t.Array(GatewaySchema),
    default_payment_gateway: GatewaySchema,
    gwa_product_id_regular: t.Nullable(t.String()),
    gwa_product_id_extended: t.Nullable(t.String()),
    gwa_product_id_monthly: t.Nullable(t.String()),
    gwa_product_id_yearly: t.Nullable(t.String()),
    price_regular: Price,
    price_extended: Price,
    price_monthly: Price,
    price_yearly: Price,
    created_at: t.String({ format: "date-time" }),
    updated_at: t.String({ format: "date-time" }),
    checkout_options: CheckoutOptionsSchema,
  }),
);

export const PublicProductSchema = named(
  "Product",
  t.Object({
    id: t.String({ format: "uuid" }),
    name: t.String(),
    slug: t.String(),
    description: t.String(),
    tags: t.Array(t.String()),
    seo_title: t.Nullable(t.String()),
    seo_description: t.Nullable(t.String()),
    delivery_model: DeliveryModelSchema,
    is_recurring: t.Boolean(),
    supports_trial: t.Boolean(),
    trial_days: t.Nullable(Int()),
    default_release_version: t.Nullable(t.String()),
    checkout_options: CheckoutOptionsSchema,
  }),
);

export const MappingInputSchema = named(
  "PricingMappingInput",
  t.Object(
    {
      payment_type: PaymentTypeSchema,
      license_type: t.Optional(t.Nullable(t.String({ maxLength: 40 }))),
      billing_interval: t.Optional(t.Nullable(BillingIntervalSchema)),
      price: Int({ minimum: 0 }),
      is_active: t.Boolean(),
    },
    { additionalProperties: false },
  ),
);

export const MappingSchema = named(
  "PricingMapping",
  t.Object({
    id: t.String({ format: "uuid" }),
    product_id: t.String({ format: "uuid" }),
    payment_type: PaymentTypeSchema,
    license_type: t.Nullable(t.String()),
    billing_interval: t.Nullable(BillingIntervalSchema),
    price: Int(),
    is_active: t.Boolean(),
  }),
);

export const ListLimit = t.Optional(QueryInt({ minimum: 1, maximum: 100, default: 20 }));
export const Cursor = t.Optional(t.String({ maxLength: 512 }));
