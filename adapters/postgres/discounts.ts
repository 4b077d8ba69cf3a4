import type { DiscountRepository } from "../../application/discounts/ports.ts";
import type { JobScheduler } from "../../application/shared/jobs.ts";
import type { DiscountWithRedemptions } from "../../domain/discounts/discount.ts";
import { isUuid } from "../shared/ids.ts";
import { createPostgresAuditLogWriter } from "./audit-log-writer.ts";
import { isUniqueViolation, type Queryable, type Sql } from "./database.ts";
import { newestFirst } from "./keyset-page.ts";

/** A discount's columns, of the alias `d`, as `Discount` has them; money as a number (below 2^53). */
export const discountColumns = (db: Queryable) => db`
  d.id, d.code, d.type, d.amount::float8 as amount, d.currency, d.duration, d.duration_in_months,
  d.max_redemptions, d.starts_at, d.expires_at, d.product_ids::text[] as product_ids, d.variants,
  d.first_purchase_only, d.disabled_at, d.created_at, d.updated_at`;

/** Each discount with its redemptions counted, as one row. */
const DISCOUNTS = (db: Queryable) => db`
  select ${discountColumns(db)},
         (select count(*)::int from discount_redemptions r where r.discount_id = d.id) as redemptions
  from discounts d`;

export function createPostgresDiscounts(sql: Sql, jobsFor: (tx: Queryable) => JobScheduler): DiscountRepository {
  const find = async (id: string, db: Queryable = sql) => {
    if (!isUuid(id)) return undefined;
    const [found] = await db<DiscountWithRedemptions[]>`select * from (${DISCOUNTS(db)}) d where id = ${id}`;
    return found;
  };
  return {
    find: (id) => find(id),

    async insert(definition, audit) {
      try {
        return await sql.begin(async (tx) => {
          const [created] = await tx<{ id: string }[]>`
            insert into discounts (code, type, amount, currency, duration, duration_in_months, max_redemptions,
                                   starts_at, expires_at, product_ids, variants, first_purchase_only)
            values (${definition.code}, ${definition.type}, ${definition.amount}, ${definition.currency},
                    ${definition.duration}, ${definition.duration_in_months}, ${definition.max_redemptions},
                    ${definition.starts_at}, ${definition.expires_at}, ${[...definition.product_ids]}::uuid[],
                    ${[...definition.variants]}::text[], ${definition.first_purchase_only})
            returning id`;
          const stored = created && (await find(created.id, tx));
          if (!stored) throw new Error("discount insert returned no row");
          await createPostgresAuditLogWriter(tx).record(audit(stored));
          return stored;
        });
      } catch (error) {
        // The only unique key a new discount can collide on is its code among the active ones.
        if (isUniqueViolation(error)) return undefined;
        throw error;
      }
    },

    async list(filter, page) {
      const keyset = newestFirst<DiscountWithRedemptions>(sql, page);
      const rows = await sql<DiscountWithRedemptions[]>`
        select * from (${DISCOUNTS(sql)}) d
        where true
          ${filter.state === "active" ? sql`and disabled_at is null` : sql``}
          ${filter.state === "disabled" ? sql`and disabled_at is not null` : sql``}
          ${filter.code ? sql`and lower(code) = lower(${filter.code})` : sql``}
          ${filter.product_id ? sql`and (product_ids = '{}' or ${filter.product_id}::uuid = any(product_ids::uuid[]))` : sql``}
          ${keyset.after}
        ${keyset.orderAndLimit}`;
      return keyset.cut(rows);
    },

    async update(id, change, audit) {
      if (!isUuid(id)) return undefined;
      return sql.begin(async (tx) => {
        // Each field the change names is set (to null too); each it leaves out keeps its value.
        const has = (field: keyof typeof change) => field in change;
        const updated = await tx`
          update discounts set
            max_redemptions = case when ${has("max_redemptions")} then ${change.max_redemptions ?? null}::int
                                   else max_redemptions end,
            starts_at = case when ${has("starts_at")} then ${change.starts_at ?? null}::timestamptz else starts_at end,
            expires_at = case when ${has("expires_at")} then ${change.expires_at ?? null}::timestamptz
                              else expires_at end,
            product_ids = case when ${has("product_ids")} then ${[...(change.product_ids ?? [])]}::uuid[]
                               else product_ids end,
            variants = case when ${has("variants")} then ${[...(change.variants ?? [])]}::text[] else variants end,
            first_purchase_only = case when ${has("first_purchase_only")} then ${change.first_purchase_only ?? false}
                                       else first_purchase_only end,
            updated_at = now()
          where id = ${id} and disabled_at is null
          returning 1`;
        if (updated.count === 0) return undefined;
        await createPostgresAuditLogWriter(tx).record(audit);
        return find(id, tx);
      });
    },

    async disable(id, at, audit, then) {
      if (!isUuid(id)) return undefined;
      return sql.begin(async (tx) => {
        const disabled = await tx`
          update discounts set disabled_at = ${at}, updated_at = now() where id = ${id} and disabled_at is null`;
        if (disabled.count > 0) {
          await createPostgresAuditLogWriter(tx).record(audit);
          await jobsFor(tx).enqueue(then);
        }
        return find(id, tx);
      });
    },
  };
}
