import type {
  CustomerInstallation,
  CustomerLicense,
  CustomerReadModel,
  CustomerSubscription,
  DashboardRow,
  Entitlement,
} from "../../../application/customers/ports.ts";
import type { SubscriptionRecord } from "../../../application/fulfillment/ports.ts";

type Owned<T> = { readonly customer_id: string; readonly row: T };

/**
 * What a customer sees, in memory and always filtered by the customer. Subscriptions are read live
 * from `subscriptions` (oldest first; joined with the product names given to `nameProduct`), so a
 * change made through the subscription repository shows at once, as in the database's view.
 * Dashboard rows of a failed checkout are left out, as the real read model does.
 */
export function createInMemoryCustomerReadModel(
  sources: { readonly subscriptions?: () => readonly SubscriptionRecord[] } = {},
) {
  const dashboard: Owned<DashboardRow>[] = [];
  const licenses: Owned<CustomerLicense>[] = [];
  const installations: Owned<CustomerInstallation>[] = [];
  const entitlements = new Map<string, Entitlement>();
  const productNames = new Map<string, string>();
  const mine = <T>(rows: readonly Owned<T>[], customerId: string) =>
    rows.filter((owned) => owned.customer_id === customerId).map((owned) => owned.row);

  const subscriptionsOf = (customerId: string): CustomerSubscription[] =>
    [...(sources.subscriptions?.() ?? [])]
      .reverse()
      .filter((s) => s.customer_id === customerId && productNames.has(s.product_id))
      .map((s) => ({
        id: s.id,
        order_id: s.order_id,
        product_id: s.product_id,
        product_name: productNames.get(s.product_id) ?? "",
        gateway: s.gateway,
        status: s.status,
        billing_interval: s.billing_interval,
        trial_ends_at: s.trial_ends_at,
        current_period_end: s.current_period_end,
        cancelled_at: s.cancelled_at,
        cancel_at_period_end: s.cancel_at_period_end,
        pending_interval: s.pending_interval,
        pending_at: s.pending_at,
        discount: null,
      }));

  const readModel: CustomerReadModel = {
    dashboard: async (customerId, orderId) =>
      mine(dashboard, customerId).filter(
        (row) => row.order_status !== "checkout_failed" && (orderId === undefined || row.order_id === orderId),
      ),
    licenses: async (customerId) => mine(licenses, customerId),
    subscriptions: async (customerId) => subscriptionsOf(customerId),
    subscription: async (customerId, id) => subscriptionsOf(customerId).find((s) => s.id === id),
    installations: async (customerId) => mine(installations, customerId),
    entitlement: async (id) => entitlements.get(id),
  };

  return {
    ...readModel,
    nameProduct(productId: string, name: string) {
      productNames.set(productId, name);
    },
    addDashboardRow(customerId: string, row: DashboardRow) {
      dashboard.push({ customer_id: customerId, row });
    },
    addLicense(customerId: string, license: CustomerLicense) {
      licenses.push({ customer_id: customerId, row: license });
    },
    addInstallation(customerId: string, installation: CustomerInstallation) {
      installations.push({ customer_id: customerId, row: installation });
    },
    addEntitlement(entitlement: Entitlement) {
      entitlements.set(entitlement.id, entitlement);
    },
  };
}

export type InMemoryCustomerReadModel = ReturnType<typeof createInMemoryCustomerReadModel>;
