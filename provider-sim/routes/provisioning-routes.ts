import { Elysia, t } from "elysia";
import { createFaultInjection } from "../fault-injection.ts";
import type { FaultQueue } from "../faults.ts";
import { OnboardRequestSchema, ReasonRequestSchema, ReferenceRequestSchema, UpgradeRequestSchema } from "../schemas.ts";
import type { TenantRecord } from "../tenant.ts";
import type { TenantStore } from "../tenant-store.ts";
import { toTenantBody } from "../tenant-views.ts";

export interface ProvisioningRoutesDeps {
  readonly store: TenantStore;
  readonly faults: FaultQueue;
  readonly publicUrl: string;
}

/** The lifecycle operations the marketplace's fulfillment adapter calls. */
export function createProvisioningRoutes(deps: ProvisioningRoutesDeps) {
  const tenant = (record: TenantRecord) => toTenantBody(record, deps.publicUrl);
  return new Elysia()
    .use(createFaultInjection(deps))
    .post(
      "/api/marketplace/onboard",
      ({ body, set }) => {
        const result = deps.store.onboard(body);
        set.status = result.created ? 201 : 200;
        return tenant(result.tenant);
      },
      { body: OnboardRequestSchema, fault: "onboard" },
    )
    .post("/api/marketplace/status", ({ body }) => tenant(deps.store.byReference(body.external_reference_id)), {
      body: ReferenceRequestSchema,
      fault: "status",
    })
    .get(
      "/api/marketplace/status/:external_reference",
      ({ params }) => tenant(deps.store.byReference(params.external_reference)),
      { params: t.Object({ external_reference: t.String({ minLength: 1, maxLength: 100 }) }), fault: "status" },
    )
    .post("/api/marketplace/suspend", ({ body }) => tenant(deps.store.suspend(body.external_reference_id)), {
      body: ReasonRequestSchema,
      fault: "suspend",
    })
    .post("/api/marketplace/cancel", ({ body }) => tenant(deps.store.cancel(body.external_reference_id)), {
      body: ReasonRequestSchema,
      fault: "cancel",
    })
    .post(
      "/api/marketplace/upgrade",
      ({ body }) =>
        tenant(
          deps.store.upgrade(
            body.external_reference_id,
            body.plan,
            body.billing_interval,
            body.current_period_end ? new Date(body.current_period_end) : undefined,
          ),
        ),
      {
        body: UpgradeRequestSchema,
        fault: "upgrade",
      },
    );
}
