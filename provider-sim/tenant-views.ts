import type { components } from "../openapi/generated/provider.ts";
import type { TenantRecord } from "./tenant.ts";

type Schemas = components["schemas"];

const iso = (date: Date | null) => date?.toISOString() ?? null;

function workspaceUrl(publicUrl: string, tenantId: string): string {
  return `${publicUrl}/workspaces/${tenantId}`;
}

export function toTenantBody(record: TenantRecord, publicUrl: string): Schemas["Tenant"] {
  return {
    external_reference_id: record.ids.reference,
    external_tenant_id: record.ids.tenant,
    external_customer_id: record.ids.customer,
    external_user_id: record.ids.user,
    external_subscription_id: record.ids.subscription,
    workspace_url: workspaceUrl(publicUrl, record.ids.tenant),
    status: record.status,
    plan: record.plan,
    trial_ends_at: iso(record.trial_ends_at),
    current_period_end: iso(record.current_period_end),
  };
}

export function toTenantDetails(record: TenantRecord, publicUrl: string): Schemas["TenantDetails"] {
  return {
    ...toTenantBody(record, publicUrl),
    order_id: record.order_id,
    order_item_id: record.order_item_id,
    product_ref: record.product_ref,
    billing_interval: record.billing_interval,
    customer: { ...record.customer },
    created_at: record.created_at.toISOString(),
    updated_at: record.updated_at.toISOString(),
  };
}

export function toTenantSummary(record: TenantRecord): Schemas["TenantSummary"] {
  return {
    external_tenant_id: record.ids.tenant,
    external_reference_id: record.ids.reference,
    order_id: record.order_id,
    order_item_id: record.order_item_id,
    status: record.status,
    plan: record.plan,
  };
}

export function toTenantStatusView(record: TenantRecord): Schemas["TenantStatusView"] {
  return { external_tenant_id: record.ids.tenant, status: record.status, updated_at: record.updated_at.toISOString() };
}

export function toSubscription(record: TenantRecord): Schemas["Subscription"] {
  return {
    external_subscription_id: record.ids.subscription,
    external_tenant_id: record.ids.tenant,
    status: record.status,
    plan: record.plan,
    billing_interval: record.billing_interval,
    trial_ends_at: iso(record.trial_ends_at),
    current_period_end: iso(record.current_period_end),
    cancelled_at: iso(record.cancelled_at),
  };
}
