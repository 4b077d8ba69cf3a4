import type {
  ExternalState,
  FulfillmentAdapter,
  FulfillmentContext,
  FulfillmentRepository,
} from "../../application/fulfillment/ports.ts";
import type { ProviderClient, ProviderTenant } from "../../application/provisioning/ports.ts";
import { driverConfig } from "../../domain/fulfillment/driver-config.ts";

/** The plan a tenant gets when the subscription mapping names no license type (docs/decisions/provider-contract.md). */
export const DEFAULT_PLAN = "standard";

const configOf = (context: FulfillmentContext) => driverConfig(context.product, "multitenant_saas");
const planOf = (context: FulfillmentContext) => context.item.license_type ?? DEFAULT_PLAN;
const stateOf = (tenant: ProviderTenant): ExternalState => ({
  external_status: tenant.status,
  external_workspace_url: tenant.workspace_url,
});

function referenceOf(context: FulfillmentContext): string {
  const reference = context.record.external_reference_id;
  if (!reference) throw new Error("the tenant was never provisioned: no external reference");
  return reference;
}

/**
 * The point-of-sale product: a tenant provisioned through the provider's machine-to-machine
 * contract (openapi/provider.yaml). Onboarding is idempotent on the order reference, so a rerun
 * returns the same tenant; the tenant link is written idempotently too.
 */
export function createMultitenantSaasAdapter(deps: {
  provider: ProviderClient;
  fulfillments: Pick<FulfillmentRepository, "linkTenant">;
}): FulfillmentAdapter {
  return {
    driver: "multitenant_saas",

    async fulfill(context) {
      const config = configOf(context);
      const { tenant } = await deps.provider.onboard(config, {
        order_id: context.order.id,
        order_item_id: context.item.id,
        product_ref: context.product.external_product_ref ?? context.product.slug,
        plan: planOf(context),
        ...(context.item.billing_interval ? { billing_interval: context.item.billing_interval } : {}),
        ...(context.item.trial_days ? { trial_days: context.item.trial_days } : {}),
        // The provider's contract takes exactly these three: nothing else of ours leaves with them.
        customer: { id: context.customer.id, email: context.customer.email, name: context.customer.name },
      });
      await deps.fulfillments.linkTenant({
        fulfillment_record_id: context.record.id,
        provider: context.product.external_provider ?? "provider",
        external_tenant_id: tenant.external_tenant_id,
        external_subscription_id: tenant.external_subscription_id,
        external_user_id: tenant.external_user_id,
      });
      return {
        status: "active",
        external_reference_id: tenant.external_reference_id,
        external_workspace_url: tenant.workspace_url,
        external_customer_id: tenant.external_customer_id,
        external_status: tenant.status,
        snapshot: {
          tenant: {
            external_tenant_id: tenant.external_tenant_id,
            external_subscription_id: tenant.external_subscription_id,
            plan: tenant.plan,
            trial_ends_at: tenant.trial_ends_at,
            current_period_end: tenant.current_period_end,
          },
        },
      };
    },

    syncStatus: async (context) => stateOf(await deps.provider.status(configOf(context), referenceOf(context))),
    suspend: async (context, reason) =>
      stateOf(await deps.provider.suspend(configOf(context), referenceOf(context), reason)),
    cancel: async (context, reason) =>
      stateOf(await deps.provider.cancel(configOf(context), referenceOf(context), reason)),
    // Upgrading to the same plan converts a trial and reactivates a suspended or expired tenant.
    resume: async (context) =>
      stateOf(await deps.provider.upgrade(configOf(context), referenceOf(context), planOf(context))),
    // The subscription moved to another interval: the tenant moves with it, paid until the period
    // the gateway reports (a change billed now starts a new one; one that waits keeps the old end).
    changePlan: async (context) =>
      stateOf(
        await deps.provider.upgrade(
          configOf(context),
          referenceOf(context),
          planOf(context),
          context.subscription?.billing_interval,
          context.subscription?.current_period_end ?? undefined,
        ),
      ),
  };
}
