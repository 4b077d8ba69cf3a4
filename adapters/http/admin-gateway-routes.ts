import { Elysia, t } from "elysia";
import type { GatewayBreakerView } from "../../application/payments/gateway-breaker-ports.ts";
import type { ProductSync } from "../../application/payments/gateway-product-sync.ts";
import type { makeGatewaySettingsAdmin, SettingsPatch } from "../../application/payments/gateway-settings.ts";
import type { ConnectionReport } from "../../application/payments/ports.ts";
import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import {
  GatewayConnectionReportSchema,
  GatewaySettingsPatchSchema,
  GatewaySettingsSchema,
  ProductSyncSchema,
} from "./gateway-schemas.ts";
import { asBody } from "./serializers.ts";

type GatewaySettingsView = Awaited<ReturnType<ReturnType<typeof makeGatewaySettingsAdmin>["describe"]>> & {
  /** The gateway's circuit breaker in each environment. */
  breakers: (Omit<GatewayBreakerView, "gateway" | "opened_at"> & { opened_at: string | null })[];
};

export interface AdminGatewayDeps {
  readonly auth: AuthOptions;
  describeGatewaySettings(gateway: PaymentGatewayName): Promise<GatewaySettingsView>;
  updateGatewaySettings(
    gateway: PaymentGatewayName,
    patch: SettingsPatch,
    actorId: string,
  ): Promise<GatewaySettingsView>;
  testGatewayConnection(gateway: PaymentGatewayName, actorId: string): Promise<ConnectionReport>;
  createGatewayAProduct(productId: string, actorId: string): Promise<ProductSync>;
  syncGatewayAProduct(productId: string, actorId: string): Promise<ProductSync>;
}

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
            response: { 200: GatewaySettingsSchema },
            detail: {
              summary: `${gateway} settings: environment, base URLs, secret references (values are write-only)`,
            },
          })
          .put(
            `/api/admin/${gateway}/settings`,
            ({ body, principal }) => deps.updateGatewaySettings(gateway, body as SettingsPatch, principal.userId),
            {
              body: GatewaySettingsPatchSchema,
              response: { 200: GatewaySettingsSchema },
              detail: {
                summary: `Change ${gateway} settings; secret values given here are stored encrypted and never returned`,
              },
            },
          )
          .post(
            `/api/admin/${gateway}/test-connection`,
            ({ principal }) => deps.testGatewayConnection(gateway, principal.userId),
            {
              response: { 200: GatewayConnectionReportSchema },
              detail: {
                summary: `Check ${gateway}'s active environment accepts our key (audited; a key not for this gateway and environment is refused with 422)`,
              },
            },
          ) as unknown as typeof app;
      }
      return routes
        .post(
          "/api/admin/gateway_a/products/create",
          async ({ body, principal }) => asBody(await deps.createGatewayAProduct(body.product_id, principal.userId)),
          {
            body: t.Object({ product_id: t.String({ maxLength: 64 }) }, { additionalProperties: false }),
            response: { 200: ProductSyncSchema },
            detail: { summary: "Create (or find and link) the gateway-A product of a marketplace product" },
          },
        )
        .put(
          "/api/admin/gateway_a/products/:id/sync",
          async ({ params, principal }) => asBody(await deps.syncGatewayAProduct(params.id, principal.userId)),
          {
            params: t.Object({ id: t.String({ maxLength: 64 }) }),
            response: { 200: ProductSyncSchema },
            detail: {
              summary: "Set the four gateway-A variant prices from the product's pricing in the active environment",
            },
          },
        );
    });
}
