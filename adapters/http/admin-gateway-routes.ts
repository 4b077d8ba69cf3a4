import { Elysia, t } from "elysia";
import type { ProductSync } from "../../application/payments/gateway-product-sync.ts";
import type { SettingsPatch } from "../../application/payments/gateway-settings.ts";
import type { ConnectionReport } from "../../application/payments/ports.ts";
import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import { TAX_BEHAVIORS } from "../../domain/payments/payment.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { oneOf } from "./catalog-schemas.ts";
import { Int } from "./schema-types.ts";

export interface AdminGatewayDeps {
  readonly auth: AuthOptions;
  describeGatewaySettings(gateway: PaymentGatewayName): Promise<unknown>;
  updateGatewaySettings(gateway: PaymentGatewayName, patch: SettingsPatch): Promise<unknown>;
  testGatewayConnection(gateway: PaymentGatewayName): Promise<ConnectionReport>;
  createGatewayAProduct(productId: string): Promise<ProductSync>;
  syncGatewayAProduct(productId: string): Promise<ProductSync>;
}

const Ref = t.String({ pattern: "^[A-Za-z][A-Za-z0-9_.-]{0,63}$" });
const Secret = t.String({ minLength: 1, maxLength: 4096 });
const EnvironmentPatch = t.Object(
  {
    base_url: t.Optional(t.String({ maxLength: 2048 })),
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
);
const SettingsBody = t.Object(
  {
    environment: t.Optional(oneOf(["sandbox", "live"])),
    sandbox: t.Optional(EnvironmentPatch),
    live: t.Optional(EnvironmentPatch),
    webhook_tolerance_seconds: t.Optional(Int({ minimum: 1, maximum: 3600 })),
    timeout_seconds: t.Optional(Int({ minimum: 1, maximum: 120 })),
    tax_behavior: t.Optional(oneOf(TAX_BEHAVIORS as ["exclusive", "inclusive"])),
  },
  { additionalProperties: false },
);

/** Settings, test connection and gateway-A catalog sync; secret values are accepted but never returned. */
export function createAdminGatewayRoutes(deps: AdminGatewayDeps) {
  const security = [{ bearer: [] }];
  return new Elysia({ name: "admin-gateway-routes", tags: ["admin: gateways"] })
    .use(createAuth(deps.auth))
    .guard({ auth: "admin", detail: { security } }, (app) => {
      let routes = app;
      for (const gateway of ["gateway_a", "gateway_b"] as const) {
        routes = routes
          .get(`/api/admin/${gateway}/settings`, () => deps.describeGatewaySettings(gateway), {
            detail: {
              summary: `${gateway} settings: environment, base URLs, secret references (values are write-only)`,
            },
          })
          .put(
            `/api/admin/${gateway}/settings`,
            ({ body }) => deps.updateGatewaySettings(gateway, body as SettingsPatch),
            {
              body: SettingsBody,
              detail: {
                summary: `Change ${gateway} settings; secret values given here are stored encrypted and never returned`,
              },
            },
          )
          .post(`/api/admin/${gateway}/test-connection`, () => deps.testGatewayConnection(gateway), {
            detail: { summary: `Check ${gateway}'s active environment accepts our key` },
          }) as unknown as typeof app;
      }
      return routes
        .post("/api/admin/gateway_a/products/create", ({ body }) => deps.createGatewayAProduct(body.product_id), {
          body: t.Object({ product_id: t.String({ maxLength: 64 }) }, { additionalProperties: false }),
          detail: { summary: "Create (or find and link) the gateway-A product of a marketplace product" },
        })
        .put("/api/admin/gateway_a/products/:id/sync", ({ params }) => deps.syncGatewayAProduct(params.id), {
          params: t.Object({ id: t.String({ maxLength: 64 }) }),
          detail: { summary: "Set the four gateway-A variant prices by the spec 2.4 rules in the active environment" },
        });
    });
}
