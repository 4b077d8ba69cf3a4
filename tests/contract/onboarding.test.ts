import { describe, expect, test } from "bun:test";
import {
  ADMIN,
  adminTenantPath,
  identity,
  type Problem,
  type Tenant,
  uniqueId,
  useContractTarget,
} from "./support/target.ts";

const target = await useContractTarget();
const ONBOARD = "/api/marketplace/onboard";
const DAY_MS = 86_400_000;

describe("onboarding (openapi/provider.yaml onboard)", () => {
  test("contract rule 3: onboarding creates a tenant: 201 with external identifiers, workspace URL and status", async () => {
    const request = target.onboardRequest();
    const response = await target.call<Tenant>("POST", ONBOARD, { body: request });
    expect(response.status).toBe(201);
    expect(response.body.status).toBe("active");
    expect(response.body.plan).toBe(request.plan);
    expect(response.body.trial_ends_at).toBeNull();
    for (const value of Object.values(identity(response.body))) expect(value).toBeString();
    expect(new URL(response.body.workspace_url).protocol).toMatch(/^https?:$/);
  });

  test("contract rule 4: an identical repeat answers 200 with the same identifiers", async () => {
    const request = target.onboardRequest();
    const first = await target.call<Tenant>("POST", ONBOARD, { body: request });
    expect(first.status).toBe(201);
    const repeat = await target.call<Tenant>("POST", ONBOARD, { body: request });
    expect(repeat.status).toBe(200);
    expect(identity(repeat.body)).toEqual(identity(first.body));
    expect(repeat.body.plan).toBe(first.body.plan);
    expect(repeat.body.status).toBe(first.body.status);
    // Key order does not matter: the same request with its fields shuffled is still identical.
    const shuffled = Object.fromEntries(Object.entries(request).reverse());
    const again = await target.call<Tenant>("POST", ONBOARD, { body: shuffled });
    expect(again.status).toBe(200);
    expect(identity(again.body)).toEqual(identity(first.body));
  });

  test("contract rule 5: the same order reference with a different plan, billing interval or customer answers 409", async () => {
    const plan =
      target.plans.find((candidate) => candidate.billing_intervals.length >= 2) ??
      target.plans.find((candidate) => candidate.id === target.planId(0));
    if (!plan) throw new Error("unreachable: planId(0) names a listed plan");
    const [interval, otherInterval] = plan.billing_intervals;
    const request = target.onboardRequest({ plan: plan.id, ...(interval ? { billing_interval: interval } : {}) });
    const first = await target.call<Tenant>("POST", ONBOARD, { body: request });
    expect(first.status).toBe(201);

    const otherPlan = target.plans.find((candidate) => candidate.id !== plan.id)?.id ?? `${plan.id}-other`;
    const differentPlan = await target.call<Problem>("POST", ONBOARD, { body: { ...request, plan: otherPlan } });
    expect(differentPlan.status).toBe(409);
    const differentCustomer = await target.call<Problem>("POST", ONBOARD, {
      body: { ...request, customer: { ...request.customer, id: uniqueId("qa-customer") } },
    });
    expect(differentCustomer.status).toBe(409);
    const differentEmail = await target.call<Problem>("POST", ONBOARD, {
      body: { ...request, customer: { ...request.customer, email: `other-${request.customer.email}` } },
    });
    expect(differentEmail.status).toBe(409);
    if (otherInterval) {
      const differentInterval = await target.call<Problem>("POST", ONBOARD, {
        body: { ...request, billing_interval: otherInterval },
      });
      expect(differentInterval.status).toBe(409);
    } else {
      console.log("contract rule 5: billing interval conflict not checked: no plan offers two billing intervals");
    }
    // The conflicts changed nothing: the identical repeat still answers the original tenant.
    const repeat = await target.call<Tenant>("POST", ONBOARD, { body: request });
    expect(repeat.status).toBe(200);
    expect(identity(repeat.body)).toEqual(identity(first.body));
    expect(repeat.body.plan).toBe(plan.id);
  });

  test("contract rule 6: two parallel onboardings of the same reference yield one tenant (one 201, one 200, equal bodies)", async () => {
    const request = target.onboardRequest();
    const responses = await Promise.all([
      target.call<Tenant>("POST", ONBOARD, { body: request }),
      target.call<Tenant>("POST", ONBOARD, { body: request }),
    ]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 201]);
    expect(responses[0]?.body).toEqual(responses[1]?.body);
    // Newest first: the fresh tenant is on the first page, exactly once.
    const page = await target.call<{ items: { order_id: string; order_item_id: string }[] }>(
      "GET",
      `${ADMIN}/tenants?limit=100`,
    );
    expect(page.status).toBe(200);
    const mine = page.body.items.filter(
      (item) => item.order_id === request.order_id && item.order_item_id === request.order_item_id,
    );
    expect(mine).toHaveLength(1);
  });

  test("contract rule 12: trial onboarding (trial_days) answers trialing with trial_ends_at", async () => {
    const trialDays = 14;
    const { tenant } = await target.onboard({ trial_days: trialDays });
    expect(tenant.status).toBe("trialing");
    expect(tenant.trial_ends_at).toBeString();
    const details = await target.call<{ created_at: string }>("GET", adminTenantPath(tenant.external_tenant_id));
    expect(details.status).toBe(200);
    const lengthDays = (Date.parse(tenant.trial_ends_at as string) - Date.parse(details.body.created_at)) / DAY_MS;
    expect(lengthDays).toBeGreaterThan(trialDays - 1);
    expect(lengthDays).toBeLessThan(trialDays + 1);
  });

  test("contract rule 13: a bad body answers 422 problem+json with errors (missing field, wrong type, unknown field)", async () => {
    const request = target.onboardRequest();
    const { customer: _customer, ...missingCustomer } = request;
    const bad: [string, string, unknown][] = [
      ["missing field", ONBOARD, missingCustomer],
      ["wrong type", ONBOARD, { ...request, trial_days: "seven" }],
      ["wrong nested type", ONBOARD, { ...request, customer: { ...request.customer, email: 42 } }],
      ["unknown field", ONBOARD, { ...request, coupon: "FREE" }],
      ["status without reference", "/api/marketplace/status", {}],
      [
        "suspend with an unknown field",
        "/api/marketplace/suspend",
        { external_reference_id: request.order_id, force: true },
      ],
      ["upgrade without plan", "/api/marketplace/upgrade", { external_reference_id: request.order_id }],
    ];
    for (const [label, path, body] of bad) {
      const response = await target.call<Problem>("POST", path, { body });
      expect({ label, status: response.status }).toEqual({ label, status: 422 });
      expect(response.headers.get("content-type")).toStartWith("application/problem+json");
      expect({ label, errors: Array.isArray(response.body.errors) && response.body.errors.length > 0 }).toEqual({
        label,
        errors: true,
      });
    }
    // None of the refused bodies created the tenant.
    const created = await target.call<Tenant>("POST", ONBOARD, { body: request });
    expect(created.status).toBe(201);
  });
});
