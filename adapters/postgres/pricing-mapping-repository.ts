import type { PricingMappingRepository } from "../../application/catalog/ports.ts";
import type { PricingMapping } from "../../domain/catalog/pricing.ts";
import { createPostgresAuditLogWriter } from "./audit-log-writer.ts";
import { columnList } from "./column-list.ts";
import type { Queryable, Sql } from "./database.ts";

export const MAPPING_COLUMNS = [
  "id",
  "product_id",
  "payment_type",
  "license_type",
  "billing_interval",
  "price",
  "is_active",
] as const;

/** Mappings of several products at once, in their saved order, keyed by product id. */
export async function listMappingsOf(sql: Queryable, productIds: readonly string[]) {
  const byProduct = new Map<string, PricingMapping[]>();
  if (productIds.length === 0) return byProduct;
  const rows = await sql<PricingMapping[]>`
    select ${columnList(sql, MAPPING_COLUMNS)} from product_pricing_mappings
    where product_id in ${sql(productIds as string[])}
    order by product_id, position`;
  for (const mapping of rows) {
    const list = byProduct.get(mapping.product_id) ?? [];
    list.push(mapping);
    byProduct.set(mapping.product_id, list);
  }
  return byProduct;
}

export function createPostgresPricingMappingRepository(sql: Sql): PricingMappingRepository {
  return {
    async listByProduct(productId) {
      return (await listMappingsOf(sql, [productId])).get(productId) ?? [];
    },

    replaceForProduct(productId, mappings, audit) {
      return sql.begin(async (tx) => {
        // Serializes concurrent bulk saves of one product so neither sees the other half-done.
        await tx`select id from products where id = ${productId} for update`;
        await tx`delete from product_pricing_mappings where product_id = ${productId}`;
        if (audit) await createPostgresAuditLogWriter(tx).record(audit);
        if (mappings.length === 0) return [] as PricingMapping[];
        // Every column but the generated id, plus the saved order: the rows' keys are the insert's columns.
        const rows = mappings.map((m, position) => ({
          product_id: productId,
          payment_type: m.payment_type,
          license_type: m.license_type ?? null,
          billing_interval: m.billing_interval ?? null,
          price: m.price,
          is_active: m.is_active,
          position,
        }));
        const inserted = await tx<PricingMapping[]>`
          insert into product_pricing_mappings ${tx(rows)}
          returning ${columnList(tx, MAPPING_COLUMNS)}`;
        return [...inserted];
      });
    },
  };
}
