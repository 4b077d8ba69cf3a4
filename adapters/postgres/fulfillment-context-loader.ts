import type { Customer, FulfillmentContext, FulfillmentContextLoader } from "../../application/fulfillment/ports.ts";
import type { SubscriptionRecord } from "../../application/fulfillment/subscription-ports.ts";
import type { Product } from "../../domain/catalog/product.ts";
import type { Order, OrderItem } from "../../domain/orders/order.ts";
import type { Payment } from "../../domain/payments/payment.ts";
import { columnList } from "./column-list.ts";
import type { Sql } from "./database.ts";
import { ITEM_COLUMNS, ORDER_COLUMNS } from "./order-repository.ts";
import { PAYMENT_COLUMNS } from "./payment-ledger.ts";
import { PRODUCT_COLUMNS } from "./product-repository.ts";
import { SUBSCRIPTION_COLUMNS } from "./subscription-repository.ts";

/**
 * Everything an adapter needs about one delivery, read in one read-only transaction whose queries
 * travel together (postgres.js pipelines the queries of a transaction that are issued at once): one
 * round trip for the reads instead of one each, and a consistent snapshot of them. Nothing is
 * locked: the delivery's own record is the only row this job changes.
 */
export function createPostgresFulfillmentContextLoader(sql: Sql): FulfillmentContextLoader {
  return {
    async load(record): Promise<FulfillmentContext> {
      const [orders, items, products, customers, payments, subscriptions] = await sql.begin("read only", (tx) =>
        Promise.all([
          tx<Order[]>`select ${columnList(tx, ORDER_COLUMNS)} from orders where id = ${record.order_id}`,
          tx<OrderItem[]>`select ${columnList(tx, ITEM_COLUMNS)} from order_items where id = ${record.order_item_id}`,
          tx<Product[]>`select ${columnList(tx, PRODUCT_COLUMNS)} from products where id = ${record.product_id}`,
          tx<Customer[]>`
            select id, email, name, email_verified_at is not null as "emailVerified"
            from users where id = ${record.customer_id}`,
          tx<Payment[]>`
            select ${columnList(tx, PAYMENT_COLUMNS)} from payments where order_id = ${record.order_id} order by created_at limit 1`,
          tx<SubscriptionRecord[]>`
            select ${columnList(tx, SUBSCRIPTION_COLUMNS)} from subscriptions where order_item_id = ${record.order_item_id}`,
        ]),
      );
      const [order] = orders;
      const [item] = items;
      const [product] = products;
      const [customer] = customers;
      if (!order || !item || item.order_id !== order.id || !product || !customer) {
        throw new Error(`fulfillment ${record.id} refers to missing rows`);
      }
      const input = record.payload_snapshot.customer_input;
      return {
        record,
        order,
        item,
        product,
        customer,
        payment: payments[0] ?? null,
        subscription: subscriptions[0] ?? null,
        customerInput: input && typeof input === "object" ? (input as Record<string, string>) : null,
      };
    },
  };
}
