import type { FulfillmentContext, FulfillmentContextLoader } from "../../../application/fulfillment/ports.ts";
import { validateProduct } from "../../../domain/catalog/product.ts";
import { anOrderItem, aPaidOrder } from "../builders/orders.ts";
import { aLicenseProduct } from "../builders/products.ts";

/**
 * Assembles a plausible context for any record (a paid one-item order, its product and customer),
 * reading the customer's input from the record's snapshot as the real loader does. Remembers which
 * records it loaded.
 */
export function createInMemoryFulfillmentContextLoader(): FulfillmentContextLoader & {
  readonly loaded: string[];
  /** Customers whose address is not verified; every other is. */
  readonly unverified: Set<string>;
} {
  const loaded: string[] = [];
  const unverified = new Set<string>();
  return {
    loaded,
    unverified,
    async load(record): Promise<FulfillmentContext> {
      loaded.push(record.id);
      const order = aPaidOrder({ id: record.order_id, customer_id: record.customer_id });
      const definition = validateProduct(aLicenseProduct());
      const product = { ...definition, id: record.product_id, fulfillment_driver: record.driver };
      const input = record.payload_snapshot.customer_input;
      return {
        record,
        order,
        item: anOrderItem(order, {
          id: record.order_item_id,
          product_id: record.product_id,
          product_name: product.name,
          fulfillment_driver: record.driver,
        }),
        product: { ...product, created_at: order.created_at, updated_at: order.created_at },
        customer: {
          id: record.customer_id,
          email: "ada@example.com",
          name: "Ada Buyer",
          emailVerified: !unverified.has(record.customer_id),
        },
        payment: null,
        subscription: null,
        customerInput: input && typeof input === "object" ? (input as Record<string, string>) : null,
      };
    },
  };
}
