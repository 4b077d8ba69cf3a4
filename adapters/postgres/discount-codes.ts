import type { PendingQuery, Row } from "postgres";
import type { DiscountCodes } from "../../application/discounts/ports.ts";
import { STATUSES_RELEASING_DISCOUNT } from "../../domain/discounts/apply.ts";
import type { Discount } from "../../domain/discounts/discount.ts";
import type { Queryable, Sql } from "./database.ts";
import { discountColumns } from "./discounts.ts";

/**
 * How many orders hold a discount's redemptions: paid ones and open checkouts; one that failed,
 * expired or was cancelled holds nothing. `discountId` is a value or a column of the outer query.
 */
export const holdersOf = (db: Queryable, discountId: string | PendingQuery<Row[]>) => db`
  (select count(*)::int from orders o
   where o.discount_id = ${discountId} and o.status not in ${db(STATUSES_RELEASING_DISCOUNT)})`;

/** Codes as a checkout reads them: one indexed query, found or not. */
export function createPostgresDiscountCodes(sql: Sql): DiscountCodes {
  return {
    async findByCode(code) {
      const [row] = await sql<(Discount & { holders: number })[]>`
        select ${discountColumns(sql)},
               ${holdersOf(sql, sql`d.id`)} as holders
        from discounts d
        where lower(d.code) = lower(${code}) and d.disabled_at is null`;
      if (!row) return undefined;
      const { holders, ...discount } = row;
      return { discount, holders };
    },

    async hasPaidOrder(customerId) {
      const [row] = await sql<{ paid: boolean }[]>`
        select exists (
          select 1 from payments p join orders o on o.id = p.order_id where o.customer_id = ${customerId}
        ) as paid`;
      return row?.paid ?? false;
    },
  };
}
