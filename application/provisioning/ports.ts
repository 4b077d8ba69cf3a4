import type { ManagementView, MultitenantSaasConfig } from "../../domain/catalog/drivers.ts";
import type { BillingInterval } from "../../domain/catalog/pricing.ts";

export type TenantStatus = "trialing" | "active" | "suspended" | "cancelled" | "expired";

/** A tenant as the provider reports it: the provider's ids, the workspace and the billing state it keeps. */
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
  /**
   * With `interval`, the tenant moves to that billing interval; its period runs to `paidUntil` when
   * given, else starts again now.
   */
  upgrade(
    config: MultitenantSaasConfig,
    externalReferenceId: string,
    plan: string,
    interval?: BillingInterval,
    paidUntil?: Date,
  ): Promise<ProviderTenant>;
  /** A read-only management call, its body checked against the contract's schema for `view`. */
  management(config: MultitenantSaasConfig, request: ManagementRequest): Promise<unknown>;
}

export type InstallationStatus = "awaiting_domain" | "provisioning" | "active" | "suspended" | "cancelled";

/** A dedicated installation of a single-tenant product: one per fulfillment record. */
export interface Installation {
  readonly id: string;
  readonly fulfillment_record_id: string;
  readonly customer_id: string;
  readonly product_id: string;
  readonly server_profile: string;
  readonly resource_limits_profile: string;
  readonly domain_strategy: "subdomain" | "customer_domain";
  readonly domain: string | null;
  readonly url: string | null;
  readonly status: InstallationStatus;
  readonly created_at: Date;
  readonly updated_at: Date;
}

export type InstallationDraft = Pick<
  Installation,
  | "fulfillment_record_id"
  | "customer_id"
  | "product_id"
  | "server_profile"
  | "resource_limits_profile"
  | "domain_strategy"
  | "domain"
> & { readonly status: "awaiting_domain" | "provisioning" };

export interface InstallationRepository {
  findForRecord(fulfillmentRecordId: string): Promise<Installation | undefined>;
  /**
   * Gives the record's installation, still awaiting its domain, the domain a customer named; the
   * database refuses one that another installation (not cancelled) has with `InstallationDomainTaken`.
   */
  claimDomain(fulfillmentRecordId: string, domain: string): Promise<void>;
  /**
   * Creates the record's installation, or updates it while it is still being set up. An installation
   * already past set-up (active, suspended, cancelled) is left as it is and returned. A domain that
   * another installation (not cancelled) has is refused with `InstallationDomainTaken`.
   */
  upsert(draft: InstallationDraft): Promise<Installation>;
  /** Moves an installation on; `from` guards against a concurrent change. Undefined when it was not in `from`. */
  update(
    id: string,
    from: readonly InstallationStatus[],
    change: { status: InstallationStatus; url?: string },
  ): Promise<Installation | undefined>;
}
