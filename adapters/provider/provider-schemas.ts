import type { ProviderTenant } from "../../application/provisioning/ports.ts";
import type { ManagementView } from "../../domain/catalog/drivers.ts";
import * as compiled from "../../openapi/generated/provider-validators.js";

/**
 * Response checks compiled from `openapi/provider.yaml` itself, so client and contract cannot drift:
 * `npm run openapi:gen` compiles them ahead of time, and `npm run check:openapi` fails when the
 * committed functions are not what the document compiles to.
 */
export type Check<T> = (value: unknown) => { ok: true; value: T } | { ok: false; reason: string };

/** Each violation as `body<path> <message>`, as Ajv's own error text reads. */
const reasonOf = (errors: readonly compiled.ValidationError[] | null | undefined) =>
  (errors ?? [])
    .map((error) => `body${error.instancePath} ${error.message ?? "is invalid"}`)
    .join(", ")
    .slice(0, 300);

function checker<T>(validate: compiled.Validator): Check<T> {
  return (value) =>
    validate(value) ? { ok: true, value: value as T } : { ok: false, reason: reasonOf(validate.errors) };
}

export const checkTenant: Check<ProviderTenant> = checker<ProviderTenant>(compiled.Tenant);

export const checkManagementView: Record<ManagementView, Check<unknown>> = {
  overview: checker(compiled.Overview),
  tenants: checker(compiled.TenantPage),
  tenant: checker(compiled.TenantDetails),
  tenant_status: checker(compiled.TenantStatusView),
  tenant_subscription: checker(compiled.Subscription),
  plans: checker(compiled.PlanList),
};
