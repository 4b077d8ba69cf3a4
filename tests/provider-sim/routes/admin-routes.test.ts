import { describe, expect, test } from "bun:test";
import type { components } from "../../../openapi/generated/provider.ts";
import { expectProblemShape } from "../../support/http.ts";
import { createTestSim, DAY_SECONDS, START, type Tenant } from "../harness.ts";

type TenantSummary = components["schemas"]["TenantSummary"];

type Sim = ReturnType<typeof createTestSim>;

/** Onboards `count` tenants one simulated minute apart, so creation order is newest-last. */
async function onboardMany(sim: Sim, count: number): Promise<Tenant[]> {
  const tenants: Tenant[] = [];
  for (let i = 0; i < count; i += 1) {
    tenants.push((await sim.onboard({ order_item_id: `item_${i}` })).body);
    sim.clock.advance(60);
  }
  return tenants;
}

async function allPages(sim: Sim, query: string, limit: number) {
  const seen: TenantSummary[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const suffix: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const page = await sim.call("GET", `/api/marketplace/admin/tenants?limit=${limit}${query}${suffix}`);
    expect(page.status).toBe(200);
    expect(page.body.items.length).toBeLessThanOrEqual(limit);
    seen.push(...page.body.items);
    cursor = page.body.next_cursor;
    pages += 1;
  } while (cursor);
  return { seen, pages };
}

describe("admin overview and plans", () => {
  test("the overview counts tenants by status and the plans", async () => {
    const sim = createTestSim();
    const [a, b] = await onboardMany(sim, 3);
    await sim.onboard({ order_item_id: "trial", trial_days: 7 });
    await sim.call("POST", "/api/marketplace/suspend", { body: { external_reference_id: a?.external_reference_id } });
    await sim.call("POST", "/api/marketplace/cancel", { body: { external_reference_id: b?.external_reference_id } });
    const overview = await sim.call("GET", "/api/marketplace/admin/overview");
    expect(overview).toMatchObject({
      status: 200,
      body: {
        tenants_total: 4,
        tenants_by_status: { trialing: 1, active: 1, suspended: 1, cancelled: 1, expired: 0 },
        plans_total: 3,
        generated_at: new Date(START.getTime() + 3 * 60_000).toISOString(),
      },
    });
  });

  test("plans lists the default catalog, or PROVIDER_SIM_PLANS when set", async () => {
    const plans = await createTestSim().call("GET", "/api/marketplace/admin/plans");
    expect(plans.body.items).toEqual([
      { id: "standard", name: "Standard", billing_intervals: ["monthly", "yearly"] },
      { id: "pro", name: "Pro", billing_intervals: ["monthly", "yearly"] },
      { id: "enterprise", name: "Enterprise", billing_intervals: ["yearly"] },
    ]);
    const custom = createTestSim({
      PROVIDER_SIM_PLANS: JSON.stringify([{ id: "solo", name: "Solo", billing_intervals: ["monthly"] }]),
    });
    expect((await custom.call("GET", "/api/marketplace/admin/plans")).body.items).toEqual([
      { id: "solo", name: "Solo", billing_intervals: ["monthly"] },
    ]);
    expectProblemShape(await custom.onboard({ plan: "standard" }), 422, "UNKNOWN_PLAN");
    expect((await custom.onboard({ plan: "solo" })).status).toBe(201);
  });
});

describe("admin tenant list", () => {
  test("newest first; every tenant appears exactly once across the pages", async () => {
    const sim = createTestSim();
    const tenants = await onboardMany(sim, 7);
    const { seen, pages } = await allPages(sim, "", 3);
    expect(pages).toBe(3);
    expect(seen.map((item) => item.external_tenant_id)).toEqual(tenants.map((t) => t.external_tenant_id).reverse());
    const newest = tenants[6] as Tenant;
    expect(seen[0]).toEqual({
      external_tenant_id: newest.external_tenant_id,
      external_reference_id: newest.external_reference_id,
      order_id: "ord_1001",
      order_item_id: "item_6",
      status: "active",
      plan: "standard",
    });
  });

  test("tenants created in the same instant still page without gaps or repeats", async () => {
    const sim = createTestSim();
    await Promise.all(Array.from({ length: 9 }, (_, i) => sim.onboard({ order_item_id: `same_${i}` })));
    const { seen } = await allPages(sim, "", 2);
    expect(new Set(seen.map((item) => item.external_tenant_id)).size).toBe(9);
    expect(seen).toHaveLength(9);
  });

  test("the status filter pages through matching tenants only", async () => {
    const sim = createTestSim();
    const tenants = await onboardMany(sim, 6);
    for (const tenant of tenants.filter((_, i) => i % 2 === 0)) {
      await sim.call("POST", "/api/marketplace/suspend", {
        body: { external_reference_id: tenant.external_reference_id },
      });
    }
    const { seen } = await allPages(sim, "&status=suspended", 2);
    expect(seen.map((item) => item.order_item_id)).toEqual(["item_4", "item_2", "item_0"]);
    expect(seen.every((item) => item.status === "suspended")).toBe(true);
  });

  test("the default page holds 20 tenants", async () => {
    const sim = createTestSim();
    await onboardMany(sim, 21);
    const page = await sim.call("GET", "/api/marketplace/admin/tenants");
    expect(page.body.items).toHaveLength(20);
    expect(page.body.next_cursor).toEqual(expect.any(String));
  });

  test("a bad cursor, status or limit is a 422", async () => {
    const sim = createTestSim();
    const cursor = await sim.call("GET", "/api/marketplace/admin/tenants?cursor=not-a-cursor");
    expectProblemShape(cursor, 422, "VALIDATION_FAILED");
    expect(cursor.body.errors[0]).toMatchObject({ path: "/cursor", code: "INVALID_CURSOR" });
    const foreign = Buffer.from(JSON.stringify({ id: 1 })).toString("base64url");
    expectProblemShape(
      await sim.call("GET", `/api/marketplace/admin/tenants?cursor=${foreign}`),
      422,
      "VALIDATION_FAILED",
    );
    for (const query of ["status=deleted", "limit=0", "limit=101", "limit=ten"]) {
      expectProblemShape(await sim.call("GET", `/api/marketplace/admin/tenants?${query}`), 422, "VALIDATION_FAILED");
    }
  });
});

describe("admin tenant views", () => {
  test("details carry the tenant, its order reference and customer", async () => {
    const sim = createTestSim();
    const tenant = (await sim.onboard({ trial_days: 3 })).body;
    sim.clock.advance(DAY_SECONDS);
    await sim.call("POST", "/api/marketplace/upgrade", {
      body: { external_reference_id: tenant.external_reference_id, plan: "pro" },
    });
    const details = await sim.call("GET", `/api/marketplace/admin/tenants/${tenant.external_tenant_id}`);
    expect(details.body).toEqual({
      ...tenant,
      status: "active",
      plan: "pro",
      current_period_end: "2026-03-01T10:00:00.000Z",
      order_id: "ord_1001",
      order_item_id: "item_1",
      product_ref: "pos-suite",
      billing_interval: "monthly",
      customer: { id: "cust_1", email: "ada@example.com", name: "Ada Lovelace" },
      created_at: START.toISOString(),
      updated_at: "2026-02-01T10:00:00.000Z",
    });
  });

  test("status and subscription views", async () => {
    const sim = createTestSim();
    const tenant = (await sim.onboard({ billing_interval: "yearly" })).body;
    const base = `/api/marketplace/admin/tenants/${tenant.external_tenant_id}`;
    expect((await sim.call("GET", `${base}/status`)).body).toEqual({
      external_tenant_id: tenant.external_tenant_id,
      status: "active",
      updated_at: START.toISOString(),
    });
    expect((await sim.call("GET", `${base}/subscription`)).body).toEqual({
      external_subscription_id: tenant.external_subscription_id,
      external_tenant_id: tenant.external_tenant_id,
      status: "active",
      plan: "standard",
      billing_interval: "yearly",
      trial_ends_at: null,
      current_period_end: "2027-01-31T10:00:00.000Z",
      cancelled_at: null,
    });
  });

  test("an unknown tenant is a 404 on every view", async () => {
    const sim = createTestSim();
    for (const suffix of ["", "/status", "/subscription"]) {
      expectProblemShape(
        await sim.call("GET", `/api/marketplace/admin/tenants/ten_nope${suffix}`),
        404,
        "TENANT_NOT_FOUND",
      );
    }
  });
});
