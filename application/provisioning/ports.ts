import type { ManagementView, MultitenantSaasConfig } from "../../domain/catalog/drivers.ts";

export type TenantStatus = "trialing" | "active" | "suspended" | "cancelled" | "expired";

/** A tenant as the provider reports it (design section 8). */
export interface ProviderTenant {
  readonly external_reference_id: string;
  readonly external_tenant_id: string;
  readonly external_customer_id: string;
  readonly external_user_id: string;
  readonly external_subscription_id: string;
  readonly workspace_url: string;
  readonly status: TenantStatus;
  readonly plan: string;
  readonly trial_ends_at: string | null;
  readonly current_period_end: string | null;
}

export interface OnboardRequest {
  readonly order_id: string;
  readonly order_item_id: string;
  readonly product_ref: string;
  readonly plan: string;
  readonly billing_interval?: "monthly" | "yearly";
  readonly trial_days?: number;
  readonly customer: { readonly id: string; readonly email: string; readonly name: string };
}

export interface ManagementRequest {
  readonly view: ManagementView;
  readonly baseUrl: string;
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
}

export interface OnboardResult {
  readonly tenant: ProviderTenant;
  /** False when the provider answered an identical earlier onboarding (200 instead of 201). */
  readonly created: boolean;
}

/**
 * The machine-to-machine contract of the point-of-sale provider. Every method throws a
 * `UpstreamError` (upstream "provider") on failure; nothing else escapes.
 */
export interface ProviderClient {
  onboard(config: MultitenantSaasConfig, request: OnboardRequest): Promise<OnboardResult>;
  status(config: MultitenantSaasConfig, externalReferenceId: string): Promise<ProviderTenant>;
  suspend(config: MultitenantSaasConfig, externalReferenceId: string, reason?: string): Promise<ProviderTenant>;
  cancel(config: MultitenantSaasConfig, externalReferenceId: string, reason?: string): Promise<ProviderTenant>;
  upgrade(config: MultitenantSaasConfig, externalReferenceId: string, plan: string): Promise<ProviderTenant>;
  /** A read-only management call, its body checked against the contract's schema for `view`. */
  management(config: MultitenantSaasConfig, request: ManagementRequest): Promise<unknown>;
}
