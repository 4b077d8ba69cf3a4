import { Elysia, t } from "elysia";
import type { ProviderManagementQuery } from "../../application/provisioning/provider-management.ts";
import type {
  ProviderConnectionInput,
  ProviderConnectionReport,
} from "../../application/provisioning/test-provider-connection.ts";
import { QueryInt } from "../../kit/schema-types.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { ProviderConnectionReportSchema } from "./gateway-schemas.ts";
import { oneOf } from "./shared-schemas.ts";

export interface AdminProviderDeps {
  readonly auth: AuthOptions;
  queryProviderManagement(request: ProviderManagementQuery): Promise<unknown>;
  testProviderConnection(input: ProviderConnectionInput, actorId: string): Promise<ProviderConnectionReport>;
}

const ConnectionBody = t.Union([
  t.Object({ product_id: t.String({ maxLength: 64 }) }, { additionalProperties: false }),
  t.Object(
    {
      fulfillment_driver: t.String({ maxLength: 64 }),
      fulfillment_config: t.Record(t.String({ maxLength: 100 }), t.Unknown()),
    },
    { additionalProperties: false },
  ),
]);

const ProductParams = t.Object({ id: t.String({ maxLength: 64 }) });
const TenantParams = t.Object({ id: t.String({ maxLength: 64 }), tenant: t.String({ minLength: 1, maxLength: 100 }) });
const TenantsQuery = t.Object({
  status: t.Optional(oneOf(["trialing", "active", "suspended", "cancelled", "expired"])),
  cursor: t.Optional(t.String({ maxLength: 200 })),
  limit: t.Optional(QueryInt({ minimum: 1, maximum: 100 })),
});

/** The provider's answer as its management API gives it (see openapi/provider.yaml), passed through. */
const ProviderView = { 200: t.Unknown({ description: "The provider's JSON answer, unchanged" }) };

/** Proxies the provider's management views for one product (the product's `management` block), authenticated like provisioning. */
export function createAdminProviderRoutes(deps: AdminProviderDeps) {
  const base = "/api/admin/products/:id/provider";
  const detail = (summary: string) => ({ summary, security: [{ bearer: [] }] });
  const view = (summary: string) => ({ response: ProviderView, detail: detail(summary) });
  return new Elysia({ name: "admin-provider-routes", tags: ["admin: provider"] })
    .use(createAuth(deps.auth))
    .guard({ auth: "admin" }, (app) =>
      app
        .post(
          "/api/admin/fulfillment/test-connection",
          ({ body, principal }) => deps.testProviderConnection(body, principal.userId),
          {
            body: ConnectionBody,
            response: { 200: ProviderConnectionReportSchema },
            detail: detail(
              "Check a SaaS product's provider address and credentials (saved product or unsaved configuration); audited; private addresses, and a credentials_ref that is not a provider secret for auth_mode, are refused with 422",
            ),
          },
        )
        .get(
          `${base}/overview`,
          ({ params }) => deps.queryProviderManagement({ productId: params.id, view: "overview" }),
          { params: ProductParams, ...view("Provider platform overview") },
        )
        .get(
          `${base}/tenants`,
          ({ params, query }) =>
            deps.queryProviderManagement({
              productId: params.id,
              view: "tenants",
              query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
            }),
          { params: ProductParams, query: TenantsQuery, ...view("Provider tenant list (status filter, cursor)") },
        )
        .get(`${base}/plans`, ({ params }) => deps.queryProviderManagement({ productId: params.id, view: "plans" }), {
          params: ProductParams,
          ...view("Provider plans"),
        })
        .get(
          `${base}/tenants/:tenant`,
          ({ params }) => deps.queryProviderManagement({ productId: params.id, view: "tenant", tenant: params.tenant }),
          { params: TenantParams, ...view("One provider tenant") },
        )
        .get(
          `${base}/tenants/:tenant/status`,
          ({ params }) =>
            deps.queryProviderManagement({ productId: params.id, view: "tenant_status", tenant: params.tenant }),
          { params: TenantParams, ...view("A provider tenant's status") },
        )
        .get(
          `${base}/tenants/:tenant/subscription`,
          ({ params }) =>
            deps.queryProviderManagement({ productId: params.id, view: "tenant_subscription", tenant: params.tenant }),
          { params: TenantParams, ...view("A provider tenant's subscription") },
        ),
    );
}
