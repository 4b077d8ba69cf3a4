import type { DiscountCodes } from "../../application/discounts/ports.ts";
import { STATUSES_RELEASING_DISCOUNT } from "../../domain/discounts/apply.ts";
import type { Discount } from "../../domain/discounts/discount.ts";
import type { Sql } from "./database.ts";
import { discountColumns } from "./discounts.ts";

/** Codes as a checkout reads them: one indexed query, found or not. */
export function createPostgresDiscountCodes(sql: Sql): DiscountCodes {
  return {
    async findByCode(code) {
      const [row] = await sql<(Discount & { holders: number })[]>`
        select ${discountColumns(sql)},
               (select count(*)::int from orders o
                where o.discount_id = d.id and o.status not in ${sql(STATUSES_RELEASING_DISCOUNT)}) as holders
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
