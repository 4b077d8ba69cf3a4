import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { ProviderTenant } from "../../application/provisioning/ports.ts";
import type { ManagementView } from "../../domain/catalog/drivers.ts";
import document from "../../openapi/provider.yaml";

/** Response checks compiled from `openapi/provider.yaml` itself, so client and contract cannot drift. */
const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats(ajv);
ajv.addSchema(document as object, "provider");

const schema = (name: string) => ajv.compile({ $ref: `provider#/components/schemas/${name}` });
const tenant = schema("Tenant");

export type Check<T> = (value: unknown) => { ok: true; value: T } | { ok: false; reason: string };

function checker<T>(validate: ReturnType<typeof schema>): Check<T> {
  return (value) =>
    validate(value)
      ? { ok: true, value: value as T }
      : { ok: false, reason: ajv.errorsText(validate.errors, { dataVar: "body" }).slice(0, 300) };
}

export const checkTenant: Check<ProviderTenant> = checker<ProviderTenant>(tenant);

export const checkManagementView: Record<ManagementView, Check<unknown>> = {
  overview: checker(schema("Overview")),
  tenants: checker(schema("TenantPage")),
  tenant: checker(schema("TenantDetails")),
  tenant_status: checker(schema("TenantStatusView")),
  tenant_subscription: checker(schema("Subscription")),
  plans: checker(schema("PlanList")),
};
