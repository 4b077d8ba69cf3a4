import { describe, expect, test } from "bun:test";
import {
  ADMIN,
  adminTenantPath,
  type Problem,
  type Schemas,
  STATUS_PATH,
  type Tenant,
  uniqueId,
  useContractTarget,
} from "./support/target.ts";

const target = await useContractTarget();
const MAX_PAGES = 200;

type Summary = Schemas["TenantSummary"];
type Page = Schemas["TenantPage"];

/** Follows `next_cursor` until every wanted tenant was seen; fails on repeats, oversize pages or filter leaks. */
async function pageUntil(query: Record<string, string>, wanted: string[]): Promise<Map<string, Summary>> {
  const seen = new Map<string, Summary>();
  const limit = Number(query.limit);
  let cursor: string | null = null;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const params = new URLSearchParams(query);
    if (cursor !== null) params.set("cursor", cursor);
    const response = await target.call<Page>("GET", `${ADMIN}/tenants?${params}`);
    expect(response.status).toBe(200);
    expect(response.body.items.length).toBeLessThanOrEqual(limit);
    for (const item of response.body.items) {
      expect(seen.has(item.external_tenant_id)).toBe(false);
      if (query.status) expect(item.status).toBe(query.status as Summary["status"]);
      seen.set(item.external_tenant_id, item);
    }
    if (wanted.every((id) => seen.has(id))) return seen;
    cursor = response.body.next_cursor;
    if (cursor === null) break;
  }
  throw new Error(`tenants ${wanted.filter((id) => !seen.has(id)).join(", ")} not reached by cursor pagination`);
}

describe("admin views (YAML admin*)", () => {
  test("contract rule 14: every admin path answers per the YAML; an unknown tenant answers 404", async () => {
    // Plans.
    const plans = await target.call<Schemas["PlanList"]>("GET", `${ADMIN}/plans`);
    expect(plans.status).toBe(200);
    expect(plans.body.items.length).toBeGreaterThan(0);
    expect(new Set(plans.body.items.map((plan) => plan.id)).size).toBe(plans.body.items.length);

    // Three fresh tenants: active (with a billing interval when the plan offers one), suspended, cancelled.
    const plan = plans.body.items[0] as Schemas["Plan"];
    const interval = plan.billing_intervals[0];
    const active = await target.onboard({ plan: plan.id, ...(interval ? { billing_interval: interval } : {}) });
    const suspended = await target.onboard();
    const cancelled = await target.onboard();
    const suspend = await target.call<Tenant>("POST", "/api/marketplace/suspend", {
      body: { external_reference_id: suspended.tenant.external_reference_id },
    });
    expect(suspend.status).toBe(200);
    const cancel = await target.call<Tenant>("POST", "/api/marketplace/cancel", {
      body: { external_reference_id: cancelled.tenant.external_reference_id },
    });
    expect(cancel.status).toBe(200);

    // Overview.
    const overview = await target.call<Schemas["Overview"]>("GET", `${ADMIN}/overview`);
    expect(overview.status).toBe(200);
    const byStatus = Object.values(overview.body.tenants_by_status).reduce((sum, count) => sum + count, 0);
    expect(overview.body.tenants_total).toBe(byStatus);
    expect(overview.body.tenants_total).toBeGreaterThanOrEqual(3);
    expect(overview.body.tenants_by_status.suspended).toBeGreaterThanOrEqual(1);
    expect(overview.body.tenants_by_status.cancelled).toBeGreaterThanOrEqual(1);
    expect(overview.body.plans_total).toBe(plans.body.items.length);

    // Tenant list: cursor pagination reaches the fresh tenants, newest first, with matching summaries.
    const ids = [active, suspended, cancelled].map(({ tenant }) => tenant.external_tenant_id);
    const listed = await pageUntil({ limit: "2" }, ids);
    for (const { request, tenant } of [active, suspended, cancelled])
      expect(listed.get(tenant.external_tenant_id)).toEqual({
        external_tenant_id: tenant.external_tenant_id,
        external_reference_id: tenant.external_reference_id,
        order_id: request.order_id,
        order_item_id: request.order_item_id,
        status: tenant === suspended.tenant ? "suspended" : tenant === cancelled.tenant ? "cancelled" : "active",
        plan: request.plan,
      });
    // Newest first, when the two creation times differ.
    const created = await Promise.all(
      [active, cancelled].map(async ({ tenant }) => {
        const response = await target.call<Schemas["TenantDetails"]>("GET", adminTenantPath(tenant.external_tenant_id));
        return Date.parse(response.body.created_at);
      }),
    );
    const order = [...listed.keys()];
    if (created[0] !== created[1])
      expect(order.indexOf(cancelled.tenant.external_tenant_id) < order.indexOf(active.tenant.external_tenant_id)).toBe(
        (created[1] as number) > (created[0] as number),
      );

    // Status filter, also paginated.
    const suspendedOnly = await pageUntil({ status: "suspended", limit: "1" }, [suspended.tenant.external_tenant_id]);
    expect(suspendedOnly.has(active.tenant.external_tenant_id)).toBe(false);
    const cancelledOnly = await pageUntil({ status: "cancelled", limit: "1" }, [cancelled.tenant.external_tenant_id]);
    expect(cancelledOnly.has(suspended.tenant.external_tenant_id)).toBe(false);

    // Tenant details.
    const status = await target.call<Tenant>("POST", STATUS_PATH, {
      body: { external_reference_id: active.tenant.external_reference_id },
    });
    const details = await target.call<Schemas["TenantDetails"]>(
      "GET",
      adminTenantPath(active.tenant.external_tenant_id),
    );
    expect(details.status).toBe(200);
    expect(details.body).toMatchObject({
      ...status.body,
      order_id: active.request.order_id,
      order_item_id: active.request.order_item_id,
      product_ref: active.request.product_ref,
      customer: active.request.customer,
    });
    if (interval) expect(details.body.billing_interval).toBe(interval);
    expect(Date.parse(details.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(details.body.created_at));

    // Tenant status.
    const tenantStatus = await target.call<Schemas["TenantStatusView"]>(
      "GET",
      adminTenantPath(suspended.tenant.external_tenant_id, "/status"),
    );
    expect(tenantStatus.status).toBe(200);
    expect(tenantStatus.body).toMatchObject({
      external_tenant_id: suspended.tenant.external_tenant_id,
      status: "suspended",
    });

    // Tenant subscription, live and cancelled.
    const subscription = await target.call<Schemas["Subscription"]>(
      "GET",
      adminTenantPath(active.tenant.external_tenant_id, "/subscription"),
    );
    expect(subscription.status).toBe(200);
    expect(subscription.body).toMatchObject({
      external_subscription_id: active.tenant.external_subscription_id,
      external_tenant_id: active.tenant.external_tenant_id,
      status: "active",
      plan: active.request.plan,
      trial_ends_at: status.body.trial_ends_at,
      current_period_end: status.body.current_period_end,
      cancelled_at: null,
    });
    if (interval) expect(subscription.body.billing_interval).toBe(interval);
    const ended = await target.call<Schemas["Subscription"]>(
      "GET",
      adminTenantPath(cancelled.tenant.external_tenant_id, "/subscription"),
    );
    expect(ended.status).toBe(200);
    expect(ended.body.status).toBe("cancelled");
    expect(ended.body.cancelled_at).toBeString();

    // Unknown tenant.
    const unknown = uniqueId("qa-unknown-tenant");
    const missing = [
      await target.call<Problem>("GET", adminTenantPath(unknown)),
      await target.call<Problem>("GET", adminTenantPath(unknown, "/status")),
      await target.call<Problem>("GET", adminTenantPath(unknown, "/subscription")),
    ];
    expect(missing.map((response) => response.status)).toEqual([404, 404, 404]);
  });

  test("contract rule 21: a bad admin tenants query answers 422 problem+json", async () => {
    const bad = ["status=bogus", "limit=0", "limit=101", "limit=ten"];
    for (const query of bad) {
      const response = await target.call<Problem>("GET", `${ADMIN}/tenants?${query}`);
      expect({ query, status: response.status }).toEqual({ query, status: 422 });
      expect(response.headers.get("content-type")).toStartWith("application/problem+json");
    }
  });
});
