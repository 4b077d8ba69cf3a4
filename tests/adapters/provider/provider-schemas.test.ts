import { describe, expect, test } from "bun:test";
import { projectPath } from "../../../adapters/asset-paths.ts";
import { checkManagementView, checkTenant } from "../../../adapters/provider/provider-schemas.ts";

const tenant = () => ({
  external_reference_id: "ref_1",
  external_tenant_id: "ten_1",
  external_customer_id: "cus_1",
  external_user_id: "usr_1",
  external_subscription_id: "sub_1",
  workspace_url: "https://shop.example.com/",
  status: "trialing" as const,
  plan: "standard",
  trial_ends_at: "2026-12-07T10:00:00Z",
  current_period_end: null,
});

const documentedTenant = async () => {
  const document = Bun.YAML.parse(await Bun.file(projectPath("openapi/provider.yaml")).text()) as {
    components: { schemas: { Tenant: { required: string[] } } };
  };
  return document.components.schemas.Tenant;
};

describe("the provider's response checks, compiled from openapi/provider.yaml", () => {
  test("a tenant as the contract describes it passes, unchanged", () => {
    const body = tenant();
    expect(checkTenant(body)).toEqual({ ok: true, value: body });
  });

  test("each property the contract requires is enforced, and the reason names it", async () => {
    const { required } = await documentedTenant();
    expect(required.length).toBeGreaterThan(5);
    for (const name of required) {
      const body: Record<string, unknown> = tenant();
      delete body[name];
      expect(checkTenant(body)).toEqual({ ok: false, reason: `body must have required property '${name}'` });
    }
  });

  test("types, formats, enums and unknown properties are checked, each violation in the reason", () => {
    const checked = checkTenant({
      ...tenant(),
      status: "great",
      workspace_url: "not a url",
      trial_ends_at: 7,
      extra: 1,
    });
    expect(checked.ok).toBeFalse();
    const reason = checked.ok ? "" : checked.reason;
    expect(reason).toContain("body must NOT have additional properties");
    expect(reason).toContain('body/workspace_url must match format "uri"');
    expect(reason).toContain("body/status must be equal to one of the allowed values");
    expect(reason).toContain("body/trial_ends_at must be string,null");
  });

  test("the reason stays short whatever the body", () => {
    const checked = checkManagementView.plans({ plans: Array.from({ length: 500 }, () => ({})) });
    expect(checked.ok).toBeFalse();
    expect(checked.ok ? 0 : checked.reason.length).toBeLessThanOrEqual(300);
  });

  test("not an object at all is refused", () => {
    for (const body of [null, [], "tenant", 42]) expect(checkTenant(body).ok).toBeFalse();
  });
});
