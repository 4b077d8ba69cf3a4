import { describe, expect, test } from "bun:test";
import { expectProblemShape } from "../../support/http.ts";
import { anOnboardRequest, createTestSim, DAY_SECONDS, problemErrors, START, type Tenant } from "../harness.ts";

const ID_PATTERNS = {
  external_reference_id: /^ref_[0-9a-f]{24}$/,
  external_tenant_id: /^ten_[0-9a-f]{24}$/,
  external_customer_id: /^cus_[0-9a-f]{24}$/,
  external_user_id: /^usr_[0-9a-f]{24}$/,
  external_subscription_id: /^sub_[0-9a-f]{24}$/,
};

async function onboarded(sim: ReturnType<typeof createTestSim>, overrides = {}) {
  const response = await sim.onboard(overrides);
  expect(response.status).toBe(201);
  return response.body;
}

describe("POST /api/marketplace/onboard", () => {
  test("the first call creates an active tenant with a month's period and a workspace", async () => {
    const response = await createTestSim().onboard();
    expect(response.status).toBe(201);
    for (const [field, pattern] of Object.entries(ID_PATTERNS)) {
      expect(response.body[field as keyof Tenant] as string).toMatch(pattern);
    }
    expect(response.body).toMatchObject({
      status: "active",
      plan: "standard",
      trial_ends_at: null,
      // Started on Jan 31: the period ends on the last day of February.
      current_period_end: "2026-02-28T10:00:00.000Z",
      workspace_url: `http://sim.test/workspaces/${response.body.external_tenant_id}`,
    });
  });

  test("trial_days starts a trial whose end is also the period end", async () => {
    const response = await createTestSim().onboard({ trial_days: 14 });
    expect(response.body).toMatchObject({
      status: "trialing",
      trial_ends_at: "2026-02-14T10:00:00.000Z",
      current_period_end: "2026-02-14T10:00:00.000Z",
    });
  });

  test("a yearly tenant's period is a year; without billing_interval it is a month", async () => {
    const sim = createTestSim();
    const yearly = await sim.onboard({ billing_interval: "yearly" });
    expect(yearly.body.current_period_end).toBe("2027-01-31T10:00:00.000Z");
    const unspecified = await sim.onboard({ order_item_id: "item_2", billing_interval: undefined });
    expect(unspecified.body.current_period_end).toBe("2026-02-28T10:00:00.000Z");
  });

  test("an identical repeat is a 200 with the same body and creates nothing", async () => {
    const sim = createTestSim();
    const first = await sim.onboard();
    const repeat = await sim.onboard();
    expect(repeat.status).toBe(200);
    expect(repeat.body).toEqual(first.body);
    expect(sim.store.all()).toHaveLength(1);
  });

  test("20 concurrent identical calls: one 201, nineteen 200, one tenant, identical bodies", async () => {
    const sim = createTestSim();
    const responses = await Promise.all(Array.from({ length: 20 }, () => sim.onboard()));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 200)).toHaveLength(19);
    for (const response of responses) expect(response.body).toEqual(responses[0]?.body as Tenant);
    expect(sim.store.all()).toHaveLength(1);
  });

  test("the same order item with another plan, interval, trial, product or customer is a 409", async () => {
    const sim = createTestSim();
    await onboarded(sim);
    const variants = [
      { plan: "pro" },
      { billing_interval: "yearly" as const },
      { trial_days: 7 },
      { product_ref: "another-product" },
      { customer: { id: "cust_2", email: "ada@example.com", name: "Ada Lovelace" } },
      { customer: { id: "cust_1", email: "other@example.com", name: "Ada Lovelace" } },
    ];
    for (const variant of variants) expectProblemShape(await sim.onboard(variant), 409, "ONBOARDING_CONFLICT");
    expect(sim.store.all()).toHaveLength(1);
  });

  test("another order item of the same order is another tenant", async () => {
    const sim = createTestSim();
    const first = await onboarded(sim);
    const second = await onboarded(sim, { order_item_id: "item_2" });
    expect(second.external_tenant_id).not.toBe(first.external_tenant_id);
  });

  test("an unknown plan is a 422 UNKNOWN_PLAN on /plan", async () => {
    const response = await createTestSim().onboard({ plan: "platinum" });
    expectProblemShape(response, 422, "UNKNOWN_PLAN");
    expect(problemErrors(response)).toEqual([expect.objectContaining({ path: "/plan", code: "UNKNOWN_PLAN" })]);
  });

  test("an interval the plan does not offer is a 422 UNSUPPORTED_BILLING_INTERVAL", async () => {
    const sim = createTestSim();
    const response = await sim.onboard({ plan: "enterprise", billing_interval: "monthly" });
    expectProblemShape(response, 422, "UNSUPPORTED_BILLING_INTERVAL");
    expect(problemErrors(response)[0]?.path).toBe("/billing_interval");
    const yearlyOnly = await sim.onboard({ plan: "enterprise", billing_interval: undefined });
    expect(yearlyOnly.body.current_period_end).toBe("2027-01-31T10:00:00.000Z");
  });

  test("a schema violation is a 422 listing each offending field, unknown fields included", async () => {
    const body = {
      ...anOnboardRequest({ trial_days: 0 }),
      customer: { id: "c", email: "not-an-email", name: "A" },
      x: 1,
    };
    const response = await createTestSim().call("POST", "/api/marketplace/onboard", { body });
    expectProblemShape(response, 422, "VALIDATION_FAILED");
    const paths = problemErrors(response)
      .map((error) => error.path)
      .sort();
    expect(paths).toEqual(["/customer/email", "/trial_days", "/x"]);
  });

  test("a missing body is a 422 and malformed JSON a 400", async () => {
    const sim = createTestSim();
    expectProblemShape(await sim.call("POST", "/api/marketplace/onboard"), 422, "VALIDATION_FAILED");
    const malformed = await sim.call("POST", "/api/marketplace/onboard", {
      rawBody: '{"order_id": "o",',
      headers: { "content-type": "application/json" },
    });
    expectProblemShape(malformed, 400, "MALFORMED_JSON");
  });

  test("a body over 1 MiB is a 413", async () => {
    const body = anOnboardRequest({ product_ref: "p".repeat(1024 * 1024) });
    expectProblemShape(
      await createTestSim().call("POST", "/api/marketplace/onboard", { body }),
      413,
      "PAYLOAD_TOO_LARGE",
    );
  });
});

describe("status", () => {
  test("the POST and GET forms answer the same tenant as onboarding did", async () => {
    const sim = createTestSim();
    const tenant = await onboarded(sim);
    const byBody = await sim.call("POST", "/api/marketplace/status", {
      body: { external_reference_id: tenant.external_reference_id },
    });
    const byPath = await sim.call("GET", `/api/marketplace/status/${tenant.external_reference_id}`);
    expect(byBody).toMatchObject({ status: 200, body: tenant });
    expect(byPath).toMatchObject({ status: 200, body: tenant });
  });

  test("an unknown reference is a 404 TENANT_NOT_FOUND in both forms", async () => {
    const sim = createTestSim();
    const byBody = await sim.call("POST", "/api/marketplace/status", { body: { external_reference_id: "ref_nope" } });
    expectProblemShape(byBody, 404, "TENANT_NOT_FOUND");
    expectProblemShape(await sim.call("GET", "/api/marketplace/status/ref_nope"), 404, "TENANT_NOT_FOUND");
  });

  test("an unknown route is a 404 problem", async () => {
    expectProblemShape(await createTestSim().call("GET", "/api/marketplace/nowhere"), 404, "ROUTE_NOT_FOUND");
  });
});

describe("suspend, cancel, upgrade", () => {
  const post = (sim: ReturnType<typeof createTestSim>, action: string, body: Record<string, unknown>) =>
    sim.call<Tenant>("POST", `/api/marketplace/${action}`, { body });

  test("suspend is idempotent: a repeat answers 200 unchanged", async () => {
    const sim = createTestSim();
    const { external_reference_id } = await onboarded(sim);
    const first = await post(sim, "suspend", { external_reference_id, reason: "payment failed" });
    expect(first).toMatchObject({ status: 200, body: { status: "suspended" } });
    sim.clock.advance(60);
    const repeat = await post(sim, "suspend", { external_reference_id });
    expect(repeat).toMatchObject({ status: 200, body: first.body });
    const tenantId = first.body.external_tenant_id;
    const view = await sim.call("GET", `/api/marketplace/admin/tenants/${tenantId}/status`);
    expect(view.body.updated_at).toBe(START.toISOString());
  });

  test("cancel is idempotent and records when it happened", async () => {
    const sim = createTestSim();
    const { external_reference_id, external_tenant_id } = await onboarded(sim);
    const first = await post(sim, "cancel", { external_reference_id });
    expect(first).toMatchObject({ status: 200, body: { status: "cancelled" } });
    sim.clock.advance(DAY_SECONDS);
    expect(await post(sim, "cancel", { external_reference_id })).toMatchObject({ status: 200, body: first.body });
    const subscription = await sim.call("GET", `/api/marketplace/admin/tenants/${external_tenant_id}/subscription`);
    expect(subscription.body.cancelled_at).toBe(START.toISOString());
  });

  test("cancel is terminal: suspend and upgrade afterwards are 409 TENANT_CANCELLED", async () => {
    const sim = createTestSim();
    const { external_reference_id } = await onboarded(sim);
    await post(sim, "cancel", { external_reference_id });
    expectProblemShape(await post(sim, "suspend", { external_reference_id }), 409, "TENANT_CANCELLED");
    expectProblemShape(await post(sim, "upgrade", { external_reference_id, plan: "pro" }), 409, "TENANT_CANCELLED");
    const status = await sim.call("GET", `/api/marketplace/status/${external_reference_id}`);
    expect(status.body).toMatchObject({ status: "cancelled", plan: "standard" });
  });

  test("upgrade changes the plan of an active tenant and keeps its period", async () => {
    const sim = createTestSim();
    const tenant = await onboarded(sim);
    const upgraded = await post(sim, "upgrade", { external_reference_id: tenant.external_reference_id, plan: "pro" });
    expect(upgraded).toMatchObject({
      status: 200,
      body: { ...tenant, plan: "pro", current_period_end: tenant.current_period_end },
    });
  });

  test("upgrade reactivates a suspended tenant with a fresh period from now", async () => {
    const sim = createTestSim();
    const { external_reference_id } = await onboarded(sim);
    await post(sim, "suspend", { external_reference_id });
    sim.clock.advance(10 * DAY_SECONDS);
    const upgraded = await post(sim, "upgrade", { external_reference_id, plan: "pro" });
    expect(upgraded.body).toMatchObject({
      status: "active",
      plan: "pro",
      current_period_end: "2026-03-10T10:00:00.000Z",
    });
  });

  test("upgrade ends a trial early and keeps trial_ends_at", async () => {
    const sim = createTestSim();
    const { external_reference_id } = await onboarded(sim, { trial_days: 14 });
    const upgraded = await post(sim, "upgrade", { external_reference_id, plan: "standard" });
    expect(upgraded.body).toMatchObject({
      status: "active",
      trial_ends_at: "2026-02-14T10:00:00.000Z",
      current_period_end: "2026-02-28T10:00:00.000Z",
    });
  });

  test("upgrade to an unknown plan is a 422, to a plan without the tenant's interval too", async () => {
    const sim = createTestSim();
    const { external_reference_id } = await onboarded(sim);
    expectProblemShape(await post(sim, "upgrade", { external_reference_id, plan: "platinum" }), 422, "UNKNOWN_PLAN");
    const yearlyOnly = await post(sim, "upgrade", { external_reference_id, plan: "enterprise" });
    expectProblemShape(yearlyOnly, 422, "UNSUPPORTED_BILLING_INTERVAL");
    expect(problemErrors(yearlyOnly)[0]?.path).toBe("/plan");
  });

  test("an unknown reference is a 404 and a missing field a 422", async () => {
    const sim = createTestSim();
    for (const action of ["suspend", "cancel"]) {
      expectProblemShape(await post(sim, action, { external_reference_id: "ref_nope" }), 404, "TENANT_NOT_FOUND");
      expectProblemShape(await post(sim, action, { reason: "x" }), 422, "VALIDATION_FAILED");
    }
    expectProblemShape(
      await post(sim, "upgrade", { external_reference_id: "ref_nope", plan: "pro" }),
      404,
      "TENANT_NOT_FOUND",
    );
    expectProblemShape(await post(sim, "upgrade", { external_reference_id: "ref_nope" }), 422, "VALIDATION_FAILED");
  });
});
