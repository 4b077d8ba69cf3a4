import { t } from "elysia";
import type { ProductSync, SyncAction } from "../../application/payments/gateway-product-sync.ts";
import type { ConnectionFailureReason } from "../../application/shared/connection-check.ts";
import { REFERENCE_PATTERN } from "../../domain/catalog/config-spec.ts";
import { MAX_URL_LENGTH } from "../../domain/shared/http-url.ts";
import { Int } from "../../kit/schema-types.ts";
import { GatewaySchema, PriceSourceSchema, VariantSchema } from "./catalog-schemas.ts";
import { named } from "./openapi-models.ts";
import { GatewayEnvironmentSchema, TaxBehaviorSchema } from "./order-schemas.ts";
import { everyOf } from "./shared-schemas.ts";

const Ref = t.String({ pattern: REFERENCE_PATTERN.source, description: "A secret reference name" });
const Secret = t.String({ minLength: 1, maxLength: 4096, description: "Stored encrypted; never returned" });

const EnvironmentPatch = named(
  "GatewayEnvironmentPatch",
  t.Object(
    {
      base_url: t.Optional(t.String({ maxLength: MAX_URL_LENGTH })),
      api_key_ref: t.Optional(Ref),
      client_key_ref: t.Optional(t.Nullable(Ref)),
      webhook_secret_ref: t.Optional(Ref),
      previous_webhook_secret_ref: t.Optional(t.Nullable(Ref)),
      api_key: t.Optional(Secret),
      client_key: t.Optional(Secret),
      webhook_secret: t.Optional(Secret),
      previous_webhook_secret: t.Optional(Secret),
    },
    { additionalProperties: false },
  ),
);

export const GatewaySettingsPatchSchema = named(
  "GatewaySettingsPatch",
  t.Object(
    {
      environment: t.Optional(GatewayEnvironmentSchema),
      sandbox: t.Optional(EnvironmentPatch),
      live: t.Optional(EnvironmentPatch),
      webhook_tolerance_seconds: t.Optional(Int({ minimum: 1, maximum: 3600 })),
      timeout_seconds: t.Optional(Int({ minimum: 1, maximum: 120 })),
      tax_behavior: t.Optional(TaxBehaviorSchema),
    },
    { additionalProperties: false },
  ),
);

/** One environment as an admin sees it: references and whether each resolves, never a value. */
const EnvironmentSettings = named(
  "GatewayEnvironmentSettings",
  t.Object({
    base_url: t.String(),
    api_key_ref: t.String(),
    client_key_ref: t.Nullable(t.String()),
    webhook_secret_ref: t.String(),
    previous_webhook_secret_ref: t.Nullable(t.String()),
    api_key_configured: t.Boolean(),
    client_key_configured: t.Boolean(),
    webhook_secret_configured: t.Boolean(),
  }),
);

export const GatewayBreakerSchema = named(
  "GatewayBreaker",
  t.Object({
    environment: GatewayEnvironmentSchema,
    state: t.Union([t.Literal("closed"), t.Literal("open"), t.Literal("half_open")], {
      description:
        "open: checkouts skip the gateway until the cool-down ends; half_open: one trial call goes through, and its success closes it",
    }),
    consecutive_failures: Int({ description: "Outages in a row (time-out, no connection, 5xx, 429)" }),
    opened_at: t.Nullable(t.String({ format: "date-time", description: "When it last opened; null while closed" })),
  }),
);

export const GatewaySettingsSchema = named(
  "GatewaySettings",
  t.Object({
    gateway: GatewaySchema,
    environment: GatewayEnvironmentSchema,
    sandbox: EnvironmentSettings,
    live: EnvironmentSettings,
    webhook_tolerance_seconds: Int(),
    timeout_seconds: Int(),
    tax_behavior: TaxBehaviorSchema,
    breakers: t.Array(GatewayBreakerSchema, {
      description: "The gateway's circuit breaker in each environment, shared by every instance",
    }),
  }),
);

const failureFields = {
  ok: t.Literal(false),
  reason: named(
    "ConnectionFailureReason",
    everyOf<ConnectionFailureReason>()([
      "bad_credentials",
      "unreachable",
      "timeout",
      "not_configured",
      "unexpected_response",
    ]),
  ),
  message: t.String(),
};

export const GatewayConnectionReportSchema = named(
  "GatewayConnectionReport",
  t.Union([
    t.Object({ ok: t.Literal(true), environment: GatewayEnvironmentSchema, latency_ms: Int() }),
    t.Object({ ...failureFields, environment: t.Nullable(GatewayEnvironmentSchema) }),
  ]),
);

export const ProviderConnectionReportSchema = named(
  "ProviderConnectionReport",
  t.Union([t.Object({ ok: t.Literal(true), latency_ms: Int() }), t.Object(failureFields)]),
);

export const ProductSyncSchema = named(
  "GatewayProductSync",
  t.Object({
    product_id: t.String(),
    environment: GatewayEnvironmentSchema,
    remote_product_id: t.String(),
    product_action: everyOf<ProductSync["product_action"]>()(["created", "relinked", "unchanged"]),
    variants: t.Array(
      t.Object({
        variant: VariantSchema,
        action: everyOf<SyncAction>()(["created", "relinked", "updated", "unchanged", "not_for_sale"]),
        price_id: t.Nullable(t.String()),
        amount: t.Nullable(Int()),
        source: t.Nullable(PriceSourceSchema),
      }),
    ),
  }),
);
