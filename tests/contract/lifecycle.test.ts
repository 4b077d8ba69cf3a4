import { describe, expect, test } from "bun:test";
import {
  adminTenantPath,
  identity,
  type Problem,
  STATUS_PATH,
  skipRule,
  statusPath,
  type Tenant,
  uniqueId,
  useContractTarget,
} from "./support/target.ts";

const target = await useContractTarget();
const SUSPEND = "/api/marketplace/suspend";
const CANCEL = "/api/marketplace/cancel";
const UPGRADE = "/api/marketplace/upgrade";

async function statusOf(reference: string): Promise<Tenant> {
  const response = await target.call<Tenant>("GET", statusPath(reference));
  expect(response.status).toBe(200);
  return response.body;
}

describe("status (YAML statusByBody, statusByPath)", () => {
  test("contract rule 7: status by POST and by GET /status/{external_reference} return the same tenant", async () => {
    const { tenant } = await target.onboard();
    const byBody = await target.call<Tenant>("POST", STATUS_PATH, {
      body: { external_reference_id: tenant.external_reference_id },
    });
    const byPath = await target.call<Tenant>("GET", statusPath(tenant.external_reference_id));
    expect(byBody.status).toBe(200);
    expect(byPath.status).toBe(200);
    expect(byPath.body).toEqual(byBody.body);
    expect(identity(byBody.body)).toEqual(identity(tenant));
    expect({ status: byBody.body.status, plan: byBody.body.plan }).toEqual({
      status: tenant.status,
      plan: tenant.plan,
    });
  });

  test("contract rule 8: an unknown reference answers 404 problem+json on status (both forms), suspend, cancel and upgrade", async () => {
    const unknown = uniqueId("qa-unknown");
    const responses = [
      await target.call<Problem>("POST", STATUS_PATH, { body: { external_reference_id: unknown } }),
      await target.call<Problem>("GET", statusPath(unknown)),
      await target.call<Problem>("POST", SUSPEND, { body: { external_reference_id: unknown, reason: "qa" } }),
      await target.call<Problem>("POST", CANCEL, { body: { external_reference_id: unknown } }),
      await target.call<Problem>("POST", UPGRADE, { body: { external_reference_id: unknown, plan: target.planId(0) } }),
    ];
    expect(responses.map((response) => response.status)).toEqual([404, 404, 404, 404, 404]);
    for (const response of responses)
      expect(response.headers.get("content-type")).toStartWith("application/problem+json");
  });
});

describe("suspend, cancel, upgrade (YAML suspend, cancel, upgrade)", () => {
  test("contract rule 9: suspend is idempotent", async () => {
    const { tenant } = await target.onboard();
    const body = { external_reference_id: tenant.external_reference_id, reason: "payment_failed" };
    const first = await target.call<Tenant>("POST", SUSPEND, { body });
    expect(first.status).toBe(200);
    expect(first.body.status).toBe("suspended");
    const again = await target.call<Tenant>("POST", SUSPEND, { body });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const withoutReason = await target.call<Tenant>("POST", SUSPEND, {
      body: { external_reference_id: tenant.external_reference_id },
    });
    expect(withoutReason.status).toBe(200);
    expect(withoutReason.body).toEqual(first.body);
    expect((await statusOf(tenant.external_reference_id)).status).toBe("suspended");
  });

  test("contract rule 10: cancel is idempotent and terminal: suspend and upgrade after cancel answer 409", async () => {
    const { tenant } = await target.onboard();
    const body = { external_reference_id: tenant.external_reference_id, reason: "customer_request" };
    const first = await target.call<Tenant>("POST", CANCEL, { body });
    expect(first.status).toBe(200);
    expect(first.body.status).toBe("cancelled");
    const again = await target.call<Tenant>("POST", CANCEL, { body });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const suspend = await target.call<Problem>("POST", SUSPEND, { body });
    expect(suspend.status).toBe(409);
    const upgrade = await target.call<Problem>("POST", UPGRADE, {
      body: { external_reference_id: tenant.external_reference_id, plan: target.plans[1]?.id ?? target.planId(0) },
    });
    expect(upgrade.status).toBe(409);
    const after = await statusOf(tenant.external_reference_id);
    expect(after.status).toBe("cancelled");
    expect(after.plan).toBe(tenant.plan);
  });

  const singlePlan = target.plans.length === 1;
  skipRule(
    11,
    singlePlan,
    "the provider lists a single plan on /api/marketplace/admin/plans, so no plan to upgrade to",
  );
  test.skipIf(singlePlan)("contract rule 11: upgrade changes the plan", async () => {
    const [from, to] = [target.planId(0), target.planId(1)];
    const { tenant } = await target.onboard({ plan: from });
    expect(tenant.plan).toBe(from);
    const upgraded = await target.call<Tenant>("POST", UPGRADE, {
      body: { external_reference_id: tenant.external_reference_id, plan: to },
    });
    expect(upgraded.status).toBe(200);
    expect(upgraded.body.plan).toBe(to);
    expect(upgraded.body.status).toBe("active");
    const after = await statusOf(tenant.external_reference_id);
    expect(after.plan).toBe(to);
    const subscription = await target.call<{ plan: string }>(
      "GET",
      adminTenantPath(tenant.external_tenant_id, "/subscription"),
    );
    expect(subscription.status).toBe(200);
    expect(subscription.body.plan).toBe(to);
  });

  test("contract rule 18: upgrade reactivates a suspended and a trialing tenant", async () => {
    const to = target.plans[1]?.id ?? target.planId(0);
    const { tenant: suspended } = await target.onboard();
    expect(
      (await target.call<Tenant>("POST", SUSPEND, { body: { external_reference_id: suspended.external_reference_id } }))
        .status,
    ).toBe(200);
    const reactivated = await target.call<Tenant>("POST", UPGRADE, {
      body: { external_reference_id: suspended.external_reference_id, plan: to },
    });
    expect(reactivated.status).toBe(200);
    expect({ status: reactivated.body.status, plan: reactivated.body.plan }).toEqual({ status: "active", plan: to });

    const { tenant: trialing } = await target.onboard({ trial_days: 7 });
    expect(trialing.status).toBe("trialing");
    const converted = await target.call<Tenant>("POST", UPGRADE, {
      body: { external_reference_id: trialing.external_reference_id, plan: to },
    });
    expect(converted.status).toBe(200);
    expect({ status: converted.body.status, plan: converted.body.plan }).toEqual({ status: "active", plan: to });
    expect((await statusOf(trialing.external_reference_id)).status).toBe("active");
  });

  test("contract rule 19: every lifecycle response carries the same identifiers and workspace URL", async () => {
    const { request, tenant } = await target.onboard();
    const reference = { external_reference_id: tenant.external_reference_id };
    const responses = [
      await target.call<Tenant>("POST", "/api/marketplace/onboard", { body: request }),
      await target.call<Tenant>("POST", STATUS_PATH, { body: reference }),
      await target.call<Tenant>("GET", statusPath(tenant.external_reference_id)),
      await target.call<Tenant>("POST", SUSPEND, { body: reference }),
      await target.call<Tenant>("POST", UPGRADE, {
        body: { ...reference, plan: target.plans[1]?.id ?? target.planId(0) },
      }),
      await target.call<Tenant>("POST", CANCEL, { body: reference }),
      await target.call<Tenant>("GET", statusPath(tenant.external_reference_id)),
    ];
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    for (const response of responses) expect(identity(response.body)).toEqual(identity(tenant));
  });
});
