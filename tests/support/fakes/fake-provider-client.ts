import type {
  ManagementRequest,
  OnboardRequest,
  ProviderClient,
  ProviderTenant,
} from "../../../application/provisioning/ports.ts";
import type { MultitenantSaasConfig } from "../../../domain/catalog/drivers.ts";

export interface ProviderCall {
  readonly method: keyof ProviderClient;
  readonly config: MultitenantSaasConfig;
  readonly argument: string | OnboardRequest | ManagementRequest;
}

export function aProviderTenant(overrides: Partial<ProviderTenant> = {}): ProviderTenant {
  return {
    external_reference_id: "ref-1",
    external_tenant_id: "tenant-1",
    external_customer_id: "customer-1",
    external_user_id: "user-1",
    external_subscription_id: "subscription-1",
    workspace_url: "https://acme.provider.example.com",
    status: "active",
    plan: "standard",
    trial_ends_at: null,
    current_period_end: null,
    ...overrides,
  };
}

/**
 * The provider's API as a fake: records every call, answers with `tenant` (or `managementBody`),
 * and throws `failure` instead while one is set, as the HTTP client throws `UpstreamError`s.
 */
export function createFakeProviderClient() {
  const calls: ProviderCall[] = [];
  let failure: Error | null = null;
  let tenant = aProviderTenant();
  let managementBody: unknown = { items: [] };

  const answer = <T>(
    method: keyof ProviderClient,
    config: MultitenantSaasConfig,
    argument: ProviderCall["argument"],
    value: T,
  ) => {
    calls.push({ method, config, argument });
    if (failure) throw failure;
    return value;
  };

  const client: ProviderClient = {
    onboard: async (config, request) => answer("onboard", config, request, { tenant, created: true }),
    status: async (config, reference) => answer("status", config, reference, tenant),
    suspend: async (config, reference) => answer("suspend", config, reference, { ...tenant, status: "suspended" }),
    cancel: async (config, reference) => answer("cancel", config, reference, { ...tenant, status: "cancelled" }),
    upgrade: async (config, reference) => answer("upgrade", config, reference, tenant),
    management: async (config, request) => answer("management", config, request, managementBody),
  };
  return {
    ...client,
    calls,
    failWith(error: Error | null) {
      failure = error;
    },
    answerTenant(next: ProviderTenant) {
      tenant = next;
    },
    answerManagement(body: unknown) {
      managementBody = body;
    },
  };
}
