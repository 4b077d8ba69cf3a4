import { nextAction } from "../../domain/dashboard/next-action.ts";
import { OrderNotFound } from "../../domain/orders/errors.ts";
import type { OrderAccess, OrderDetails, OrderRepository } from "../checkout/ports.ts";
import type { FulfillmentRepository } from "../fulfillment/ports.ts";
import type { PageRequest } from "../shared/ports.ts";
import type { CustomerReadModel, DashboardRow, DownloadLinks } from "./ports.ts";

/** A customer's own orders, deliveries, licenses, subscriptions and installations. */
export function makeCustomerViews(deps: {
  readModel: CustomerReadModel;
  orders: OrderRepository;
  fulfillments: FulfillmentRepository;
  downloads: DownloadLinks;
  access: OrderAccess;
}) {
  const downloadUrl = (entitlementId: string | null, customerId: string) =>
    entitlementId ? deps.downloads.link(entitlementId, customerId) : Promise.resolve(null);

  const dashboardItems = (rows: readonly DashboardRow[], customerId: string) =>
    Promise.all(
      rows.map(async (row) => ({
        order_id: row.order_id,
        order_item_id: row.order_item_id,
        fulfillment_id: row.fulfillment_id,
        product_id: row.product_id,
        product_name: row.product_name,
        delivery_model: row.delivery_model,
        driver: row.driver,
        variant: row.variant,
        payment_gateway: row.payment_gateway,
        status: row.status ?? ("pending_payment" as const),
        external_status: row.external_status,
        next_action: nextAction({
          order_status: row.order_status,
          checkout_url: row.checkout_url,
          fulfillment_id: row.fulfillment_id,
          status: row.status,
          awaiting: row.awaiting,
          external_status: row.external_status,
          driver: row.driver,
          workspace_url: row.workspace_url,
          license:
            row.license_key === null
              ? null
              : {
                  key: row.license_key,
                  activations_used: row.activations ?? 0,
                  max_activations: row.max_activations ?? 0,
                  download_url: await downloadUrl(row.entitlement_id, customerId),
                },
          task_due_at: row.task_due_at?.toISOString() ?? null,
        }),
        purchased_at: row.created_at.toISOString(),
      })),
    );

  const withFulfillments = async (details: OrderDetails) => {
    const fulfillments = await deps.fulfillments.list({ order_id: details.order.id }, { limit: 100 });
    return { ...details, fulfillments: fulfillments.items };
  };

  return {
    async dashboard(customerId: string) {
      return { items: await dashboardItems(await deps.readModel.dashboard(customerId), customerId), next_cursor: null };
    },

    /**
     * One order as its status page shows it to whoever holds the order's signed access (a guest's
     * link): the order, its deliveries and their next actions, and nothing else of its customer. A
     * wrong access is the same not found as an unknown order.
     */
    async orderByAccess(orderId: string, access: string) {
      if (!(await deps.access.verify(orderId, access))) throw new OrderNotFound();
      const details = await deps.orders.find(orderId);
      if (!details) throw new OrderNotFound();
      const customerId = details.order.customer_id;
      const items = await dashboardItems(await deps.readModel.dashboard(customerId, orderId), customerId);
      return { details: await withFulfillments(details), items };
    },

    orders: (customerId: string, page: PageRequest) => deps.orders.list({ customer_id: customerId }, page),

    /** Another customer's order is not found: never 403, never its data. */
    async order(customerId: string, orderId: string) {
      const details = await deps.orders.find(orderId);
      if (!details || details.order.customer_id !== customerId) throw new OrderNotFound();
      return withFulfillments(details);
    },

    async licenses(customerId: string) {
      const licenses = await deps.readModel.licenses(customerId);
      return Promise.all(
        licenses.map(async (license) => ({
          ...license,
          download_url: await downloadUrl(license.entitlement_id, customerId),
        })),
      );
    },

    subscriptions: (customerId: string) => deps.readModel.subscriptions(customerId),
    installations: (customerId: string) => deps.readModel.installations(customerId),
  };
}
