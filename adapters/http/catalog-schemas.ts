import { t } from "elysia";
import { DELIVERY_MODELS, FULFILLMENT_DRIVERS } from "../../domain/catalog/drivers.ts";
import {
  BILLING_INTERVALS,
  MAX_LICENSE_TYPE_LENGTH,
  PAYMENT_TYPES,
  PRICE_SOURCES,
} from "../../domain/catalog/pricing.ts";
import { PAYMENT_GATEWAYS, PRODUCT_LIMITS, PRODUCT_STATUSES } from "../../domain/catalog/product.ts";
import { VARIANTS } from "../../domain/catalog/variants.ts";
import { Int } from "../../kit/schema-types.ts";
import { named } from "./openapi-models.ts";
import { oneOf, Time, Uuid } from "./shared-schemas.ts";

/** Kept for the route files that still import it from here; its home is shared-schemas.ts. */

export const DeliveryModelSchema = named("DeliveryModel", oneOf(DELIVERY_MODELS));
export const DriverSchema = named("FulfillmentDriver", oneOf(FULFILLMENT_DRIVERS));
export const GatewaySchema = named("PaymentGateway", oneOf(PAYMENT_GATEWAYS));
export const StatusSchema = named("ProductStatus", oneOf(PRODUCT_STATUSES));
export const VariantSchema = named("Variant", oneOf(VARIANTS));
export const PaymentTypeSchema = named("PaymentType", oneOf(PAYMENT_TYPES));
export const BillingIntervalSchema = named("BillingInterval", oneOf(BILLING_INTERVALS));
export const PriceSourceSchema = oneOf(PRICE_SOURCES);
const Price = t.Nullable(Int({ minimum: 0, description: "Minor units of MARKETPLACE_CURRENCY" }));
const OptionalText = (maxLength: number) => t.Optional(t.Nullable(t.String({ maxLength })));
/**
 * A field the domain checks against its own list (an enum, a gateway): a string here, capped only
 * against abuse, so that a wrong value gets the domain's INVALID_ENUM at its JSON pointer.
 */
const DomainChecked = (maxLength: number) => t.String({ maxLength });

/** Types and the domain's caps only; the domain checks every cross-field rule and the driver's configuration. */
export const ProductInputSchema = named(
  "ProductInput",
  t.Object(
    {
      name: t.String({ maxLength: PRODUCT_LIMITS.name }),
      slug: t.String({ maxLength: PRODUCT_LIMITS.slug }),
      description: t.Optional(t.String({ maxLength: PRODUCT_LIMITS.description })),
      status: t.Optional(StatusSchema),
      tags: t.Optional(t.Array(t.String({ maxLength: PRODUCT_LIMITS.tag }), { maxItems: PRODUCT_LIMITS.tags })),
      seo_title: OptionalText(PRODUCT_LIMITS.seo_title),
      seo_description: OptionalText(PRODUCT_LIMITS.seo_description),
      delivery_model: DomainChecked(50),
      fulfillment_driver: DomainChecked(50),
      external_provider: OptionalText(PRODUCT_LIMITS.external_provider),
      external_product_ref: OptionalText(PRODUCT_LIMITS.external_product_ref),
      default_release_version: OptionalText(PRODUCT_LIMITS.default_release_version),
      repo_path: OptionalText(PRODUCT_LIMITS.repo_path),
      fulfillment_config: t.Optional(t.Record(t.String(), t.Unknown())),
      is_recurring: t.Optional(t.Boolean()),
      supports_trial: t.Optional(t.Boolean()),
      trial_days: t.Optional(t.Nullable(Int())),
      enabled_payment_gateways: t.Optional(t.Array(DomainChecked(20), { maxItems: 10 })),
      default_payment_gateway: t.Optional(DomainChecked(20)),
      gwa_product_id_regular: OptionalText(PRODUCT_LIMITS.gateway_product_id),
      gwa_product_id_extended: OptionalText(PRODUCT_LIMITS.gateway_product_id),
      gwa_product_id_monthly: OptionalText(PRODUCT_LIMITS.gateway_product_id),
      gwa_product_id_yearly: OptionalText(PRODUCT_LIMITS.gateway_product_id),
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
    id: Uuid,
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
    created_at: Time,
    updated_at: Time,
    checkout_options: CheckoutOptionsSchema,
  }),
);

export const PublicProductSchema = named(
  "Product",
  t.Object({
    id: Uuid,
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
      license_type: t.Optional(t.Nullable(t.String({ maxLength: MAX_LICENSE_TYPE_LENGTH }))),
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
    id: Uuid,
    product_id: Uuid,
    payment_type: PaymentTypeSchema,
    license_type: t.Nullable(t.String()),
    billing_interval: t.Nullable(BillingIntervalSchema),
    price: Int(),
    is_active: t.Boolean(),
  }),
);
