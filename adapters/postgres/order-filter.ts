import type postgres from "postgres";
import type { OrderFilter } from "../../application/checkout/ports.ts";
import type { Queryable } from "./database.ts";

/**
 * The admin order list's filter as `where` conditions (each starts with `and`), on the order's own
 * column names: the list and the CSV exports of orders and of their payments share it, so a filter
 * means the same rows in both.
 */
export function orderConditions(sql: Queryable, filter: OrderFilter): postgres.Fragment {
  return sql`
    ${filter.customer_id ? sql`and customer_id = ${filter.customer_id}` : sql``}
    ${filter.status ? sql`and status = ${filter.status}` : sql``}
    ${filter.payment_gateway ? sql`and payment_gateway = ${filter.payment_gateway}` : sql``}
    ${filter.needs_attention === undefined ? sql`` : sql`and needs_attention = ${filter.needs_attention}`}`;
}
