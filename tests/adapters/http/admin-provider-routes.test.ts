import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { aLicenseProduct, aPointOfSaleProduct } from "../../support/builders/products.ts";
import { useTestDatabase } from "../../support/database.ts";
import { call, expectProblemShape } from "../../support/http.ts";
import type { RunningService } from "../../support/process.ts";
import { SIM_TOKEN, startProviderSim } from "../../support/provider-sim.ts";

const db = useTestDatabase();
let sim: RunningService;
let marketplace: ReturnType<typeof createTestMarketplace>;
let admin = "";
let productId = "";
let tenantId = "";

const app = () => marketplace.app;

function posProduct(management: Record<string, unknown>) {
  const base = aPointOfSaleProduct();
  return aPointOfSaleProduct({
    fulfillment_config: { ...base.fulfillment_config, base_url: sim.url, credentials_ref: "sim_token", management },
  });
}

beforeAll(async () => {
  sim = await startProviderSim();
  marketplace = createTestMarketplace(db.current.sql, {}, { env: { SECRET_SIM_TOKEN: SIM_TOKEN } });
  admin = await tokenFor("admin");
  const created = await call(app(), "POST", "/api/admin/products", {
    token: admin,
    // Only base_url is configured: every endpoint falls back to the provider contract's default paths.
    body: posProduct({ enabled: true, base_url: sim.url }),
  });
  productId = created.body.id;
  const product = await marketplace.deps.getAdminProduct(productId);
  const { tenant } = await marketplace.provider.onboard(product.product.fulfillment_config as never, {
    order_id: crypto.randomUUID(),
    order_item_id: crypto.randomUUID(),
    product_ref: "pos-standard",
    plan: "standard",
    trial_days: 14,
    customer: { id: "cust-1", email: "owner@example.com", name: "Owner" },
  });
  tenantId = tenant.external_tenant_id;
});

afterAll(async () => {
  await marketplace.close();
  await sim.stop();
});

const get = (path: string) => call(app(), "GET", `/api/admin/products/${productId}/provider${path}`, { token: admin });

describe("provider management through the proxy", () => {
  test("overview counts the tenant", async () => {
    const response = await get("/overview");
    expect(response.status).toBe(200);
    expect(response.body.tenants_total).toBeGreaterThanOrEqual(1);
    expect(response.body.tenants_by_status.trialing).toBeGreaterThanOrEqual(1);
  });

  test("tenant list, filtered by status", async () => {
    const trialing = await get("/tenants?status=trialing&limit=100");
    expect(trialing.body.items.map((t: { external_tenant_id: string }) => t.external_tenant_id)).toContain(tenantId);
    const cancelled = await get("/tenants?status=cancelled");
    expect(cancelled.body.items).toEqual([]);
  });

  test("one tenant's details, status and subscription", async () => {
    const details = await get(`/tenants/${tenantId}`);
    expect(details.body).toMatchObject({ external_tenant_id: tenantId, status: "trialing", plan: "standard" });
    const status = await get(`/tenants/${tenantId}/status`);
    expect(status.body).toMatchObject({ external_tenant_id: tenantId, status: "trialing" });
    const subscription = await get(`/tenants/${tenantId}/subscription`);
    expect(subscription.body).toMatchObject({ external_tenant_id: tenantId, plan: "standard", cancelled_at: null });
  });

  test("plans", async () => {
    const plans = await get("/plans");
    expect(plans.body.items.map((p: { id: string }) => p.id)).toContain("standard");
  });

  test("an unknown tenant is a 404 problem; a tenant id is encoded into the path", async () => {
    expectProblemShape(await get("/tenants/ten_nope"), 404, "PROVIDER_NOT_FOUND");
    expectProblemShape(await get(`/tenants/${encodeURIComponent("../overview")}`), 404, "PROVIDER_NOT_FOUND");
  });

  test("a provider failure is a 502 problem that does not echo the provider's body", async () => {
    await fetch(`${sim.url}/__sim/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ route: "admin_overview", mode: "garbage", count: 1 }),
    });
    const response = await get("/overview");
    expectProblemShape(response, 502, "PROVIDER_BAD_RESPONSE");
  });

  test("customers cannot use the proxy", async () => {
    const customer = await tokenFor("customer");
    const response = await call(app(), "GET", `/api/admin/products/${productId}/provider/overview`, {
      token: customer,
    });
    expectProblemShape(response, 403, "FORBIDDEN_ROLE");
  });
});

describe("when the proxy refuses", () => {
  test("a disabled management block is a 409 problem", async () => {
    const created = await call(app(), "POST", "/api/admin/products", {
      token: admin,
      body: posProduct({ enabled: false }),
    });
    const response = await call(app(), "GET", `/api/admin/products/${created.body.id}/provider/overview`, {
      token: admin,
    });
    expectProblemShape(response, 409, "PROVIDER_MANAGEMENT_DISABLED");
  });

  test("a product of another driver is a 409 problem; an unknown product a 404", async () => {
    const created = await call(app(), "POST", "/api/admin/products", { token: admin, body: aLicenseProduct() });
    const other = await call(app(), "GET", `/api/admin/products/${created.body.id}/provider/plans`, { token: admin });
    expectProblemShape(other, 409, "NOT_A_PROVIDER_PRODUCT");
    const unknown = await call(app(), "GET", `/api/admin/products/${crypto.randomUUID()}/provider/plans`, {
      token: admin,
    });
    expectProblemShape(unknown, 404, "PRODUCT_NOT_FOUND");
  });
});
