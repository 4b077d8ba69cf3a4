import { Elysia, t } from "elysia";
import type { components } from "../../openapi/generated/provider.ts";
import type { SimClock } from "../clock.ts";
import { createFaultInjection } from "../fault-injection.ts";
import type { FaultQueue } from "../faults.ts";
import { TenantPageQuerySchema } from "../schemas.ts";
import type { TenantStore } from "../tenant-store.ts";
import { toSubscription, toTenantDetails, toTenantStatusView, toTenantSummary } from "../tenant-views.ts";

type Schemas = components["schemas"];

export interface AdminRoutesDeps {
  readonly store: TenantStore;
  readonly faults: FaultQueue;
  readonly clock: SimClock;
  readonly publicUrl: string;
}

const TenantParams = t.Object({ tenant: t.String({ minLength: 1, maxLength: 100 }) });

/** The read-only views behind the marketplace's provider management pages. */
export function createAdminRoutes(deps: AdminRoutesDeps) {
  const { store } = deps;
  return new Elysia()
    .use(createFaultInjection(deps))
    .get(
      "/api/marketplace/admin/overview",
      (): Schemas["Overview"] => {
        const byStatus = store.countByStatus();
        return {
          tenants_total: Object.values(byStatus).reduce((sum, count) => sum + count, 0),
          tenants_by_status: byStatus,
          plans_total: store.plans.length,
          generated_at: deps.clock.now().toISOString(),
        };
      },
      { fault: "admin_overview" },
    )
    .get(
      "/api/marketplace/admin/tenants",
      ({ query }): Schemas["TenantPage"] => {
        const page = store.list({ status: query.status, cursor: query.cursor, limit: query.limit ?? 20 });
        return { items: page.items.map(toTenantSummary), next_cursor: page.next_cursor };
      },
      { query: TenantPageQuerySchema, fault: "admin_tenants" },
    )
    .get(
      "/api/marketplace/admin/tenants/:tenant",
      ({ params }) => toTenantDetails(store.byTenantId(params.tenant), deps.publicUrl),
      { params: TenantParams, fault: "admin_tenant" },
    )
    .get(
      "/api/marketplace/admin/tenants/:tenant/status",
      ({ params }) => toTenantStatusView(store.byTenantId(params.tenant)),
      { params: TenantParams, fault: "admin_tenant_status" },
    )
    .get(
      "/api/marketplace/admin/tenants/:tenant/subscription",
      ({ params }) => toSubscription(store.byTenantId(params.tenant)),
      { params: TenantParams, fault: "admin_tenant_subscription" },
    )
    .get(
      "/api/marketplace/admin/plans",
      (): Schemas["PlanList"] => ({
        items: store.plans.map((plan) => ({ ...plan, billing_intervals: [...plan.billing_intervals] })),
      }),
      { fault: "admin_plans" },
    );
}
