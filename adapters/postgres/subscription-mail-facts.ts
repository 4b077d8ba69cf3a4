import type { SubscriptionMailFacts, SubscriptionMailFactsReader } from "../../application/notifications/ports.ts";
import { isUuid } from "../shared/ids.ts";
import type { Queryable } from "./database.ts";

/** Who to email about a subscription: the customer and the product as bought. */
export function createPostgresSubscriptionMailFacts(sql: Queryable): SubscriptionMailFactsReader {
  return {
    async forSubscription(subscriptionId) {
      if (!isUuid(subscriptionId)) return undefined;
      const [row] = await sql<SubscriptionMailFacts[]>`
        select u.id as customer_id, u.guest as customer_guest, u.email as customer_email, u.name as customer_name,
               i.product_name, s.order_id
        from subscriptions s
        join order_items i on i.id = s.order_item_id
        join users u on u.id = s.customer_id
        where s.id = ${subscriptionId}`;
      return row;
    },
  };
}
