import type { FulfillmentMailFacts, FulfillmentMailFactsReader } from "../../application/notifications/ports.ts";
import { isUuid } from "../shared/ids.ts";
import type { Queryable } from "./database.ts";

/** Who to email about a delivery and what to say: the customer, the product as bought, the workspace. */
export function createPostgresFulfillmentMailFacts(sql: Queryable): FulfillmentMailFactsReader {
  return {
    async forFulfillment(fulfillmentId) {
      if (!isUuid(fulfillmentId)) return undefined;
      const [row] = await sql<FulfillmentMailFacts[]>`
        select u.id as customer_id, u.guest as customer_guest, u.email as customer_email, u.name as customer_name, i.product_name, f.order_id, f.driver,
               f.external_workspace_url as workspace_url, f.attempts, f.payload_snapshot->>'awaiting' as awaiting
        from fulfillment_records f
        join order_items i on i.id = f.order_item_id
        join users u on u.id = f.customer_id
        where f.id = ${fulfillmentId}`;
      return row;
    },
  };
}
