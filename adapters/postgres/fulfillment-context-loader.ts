import type { FulfillmentContext, FulfillmentContextLoader } from "../../application/fulfillment/ports.ts";
import type { Product } from "../../domain/catalog/product.ts";
import type { Payment } from "../../domain/payments/payment.ts";
import type { Sql } from "./database.ts";
import { createPostgresOrderLedger } from "./order-ledger.ts";
import { PAYMENT_COLUMNS } from "./payment-ledger.ts";
import { createPostgresProductRepository } from "./product-repository.ts";
import { createPostgresSubscriptionRepository } from "./subscription-repository.ts";

export function createPostgresFulfillmentContextLoader(sql: Sql): FulfillmentContextLoader {
  const products = createPostgresProductRepository(sql);
  const subscriptions = createPostgresSubscriptionRepository(sql);
  return {
    async load(record): Promise<FulfillmentContext> {
      const found = await sql.begin((tx) => createPostgresOrderLedger(tx).find(record.order_id));
      const item = found?.items.find((i) => i.id === record.order_item_id);
      const product: Product | undefined = await products.findById(record.product_id);
      const [customer] = await sql<{ id: string; email: string; name: string }[]>`
        select id, email, name from users where id = ${record.customer_id}`;
      if (!found || !item || !product || !customer) throw new Error(`fulfillment ${record.id} refers to missing rows`);
      const [payment] = await sql<Payment[]>`
        select ${sql(PAYMENT_COLUMNS)} from payments where order_id = ${record.order_id} order by created_at limit 1`;
      const input = record.payload_snapshot.customer_input;
      return {
        record,
        order: found.order,
        item,
        product,
        customer,
        payment: payment ?? null,
        subscription: (await subscriptions.findForItem(item.id)) ?? null,
        customerInput: input && typeof input === "object" ? (input as Record<string, string>) : null,
      };
    },
  };
}
