import { t } from "elysia";
import { CheckoutOptionsSchema, DeliveryModelSchema, DriverSchema, StatusSchema } from "./catalog-schemas.ts";
import { named } from "./openapi-models.ts";
import { Uuid } from "./shared-schemas.ts";

export const CheckoutPreviewSchema = named(
  "CheckoutPreview",
  t.Object({
    product_id: Uuid,
    status: StatusSchema,
    purchasable: t.Boolean({ description: "Published and with at least one variant for sale" }),
    checkout_options: CheckoutOptionsSchema,
  }),
);

/** The admin form's hints for one driver. */
export const DriverDescriptionSchema = named(
  "DriverDescription",
  t.Object({
    driver: DriverSchema,
    delivery_models: t.Array(DeliveryModelSchema),
    required_keys: t.Array(t.String()),
    config_schema: t.Record(t.String(), t.Unknown(), { description: "JSON Schema of `fulfillment_config`" }),
    requires_external_product: t.Boolean(),
    requires_recurring: t.Boolean(),
    supports_test_connection: t.Boolean(),
  }),
);
