import type postgres from "postgres";
import type { ProductRepository, ProductWithMappings } from "../../application/catalog/ports.ts";
import type { Page } from "../../application/shared/ports.ts";
import { SlugTaken } from "../../domain/catalog/errors.ts";
import type { Product, ProductDefinition } from "../../domain/catalog/product.ts";
import { isUuid } from "../shared/ids.ts";
import { createPostgresAuditLogWriter } from "./audit-log-writer.ts";
import { columnList } from "./column-list.ts";
import { isUniqueViolation, type Queryable, type Sql } from "./database.ts";
import { byName } from "./keyset-page.ts";
import { listMappingsOf } from "./pricing-mapping-repository.ts";

export const PRODUCT_COLUMNS = [
  "id",
  "name",
  "slug",
  "description",
  "status",
  "tags",
  "seo_title",
  "seo_description",
  "delivery_model",
  "fulfillment_driver",
  "external_provider",
  "external_product_ref",
  "default_release_version",
  "repo_path",
  "fulfillment_config",
  "is_recurring",
  "supports_trial",
  "trial_days",
  "enabled_payment_gateways",
  "default_payment_gateway",
  "gwa_product_id_regular",
  "gwa_product_id_extended",
  "gwa_product_id_monthly",
  "gwa_product_id_yearly",
  "price_regular",
  "price_extended",
  "price_monthly",
  "price_yearly",
  "created_at",
  "updated_at",
] as const;

type Writable = Exclude<(typeof PRODUCT_COLUMNS)[number], "id" | "created_at" | "updated_at">;
const WRITABLE = PRODUCT_COLUMNS.filter((c): c is Writable => c !== "id" && c !== "created_at" && c !== "updated_at");

/** Kept for the repositories that still import it from here; its home is adapters/shared/ids.ts. */

function row(definition: ProductDefinition, sql: Queryable) {
  // jsonb goes through sql.json so postgres.js sends the object as JSON.
  return { ...definition, fulfillment_config: sql.json(definition.fulfillment_config as postgres.JSONValue) };
}

export function createPostgresProductRepository(sql: Sql): ProductRepository {
  const columns = columnList(sql, PRODUCT_COLUMNS);

  return {
    async insert(definition, audit) {
      try {
        return await sql.begin(async (tx) => {
          const [product] = await tx<Product[]>`
            insert into products ${tx(row(definition, tx), WRITABLE)}
            returning ${columnList(tx, PRODUCT_COLUMNS)}`;
          if (product && audit) await createPostgresAuditLogWriter(tx).record(audit(product));
          return product;
        });
      } catch (error) {
        if (isUniqueViolation(error)) return undefined;
        throw error;
      }
    },

    async update(id, definition, audit) {
      if (!isUuid(id)) return undefined;
      try {
        return await sql.begin(async (tx) => {
          const [product] = await tx<Product[]>`
            update products set ${tx(row(definition, tx), WRITABLE)}, updated_at = now()
            where id = ${id}
            returning ${columnList(tx, PRODUCT_COLUMNS)}`;
          if (product && audit) await createPostgresAuditLogWriter(tx).record(audit);
          return product;
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new SlugTaken(definition.slug);
        throw error;
      }
    },

    async findById(id) {
      if (!isUuid(id)) return undefined;
      const [product] = await sql<Product[]>`select ${columns} from products where id = ${id}`;
      return product;
    },

    async findBySlug(slug) {
      const [product] = await sql<Product[]>`select ${columns} from products where slug = ${slug}`;
      return product;
    },

    async list(filter, page): Promise<Page<ProductWithMappings>> {
      const keyset = byName<Product>(sql, page);
      const pattern = filter.q ? `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
      const products = await sql<Product[]>`
        select ${columns} from products
        where true
          ${filter.status ? sql`and status = ${filter.status}` : sql``}
          ${filter.delivery_model ? sql`and delivery_model = ${filter.delivery_model}` : sql``}
          ${filter.tag ? sql`and tags @> array[${filter.tag}]::text[]` : sql``}
          ${pattern ? sql`and (name ilike ${pattern} or description ilike ${pattern})` : sql``}
          ${keyset.after}
        ${keyset.orderAndLimit}`;
      const { items, next_cursor } = keyset.cut(products);
      const mappings = await listMappingsOf(
        sql,
        items.map((p) => p.id),
      );
      return { items: items.map((product) => ({ product, mappings: mappings.get(product.id) ?? [] })), next_cursor };
    },

    async findWithMappings(ids) {
      const found = new Map<string, ProductWithMappings>();
      const valid = ids.filter(isUuid);
      if (valid.length === 0) return found;
      const products = await sql<Product[]>`select ${columns} from products where id in ${sql(valid)}`;
      const mappings = await listMappingsOf(
        sql,
        products.map((p) => p.id),
      );
      for (const product of products) found.set(product.id, { product, mappings: mappings.get(product.id) ?? [] });
      return found;
    },

    async setGatewayAIds(id, ids, audit) {
      await sql.begin(async (tx) => {
        const updated = await tx`
          update products set
            gwa_product_id_regular = ${ids.regular}, gwa_product_id_extended = ${ids.extended},
            gwa_product_id_monthly = ${ids.monthly}, gwa_product_id_yearly = ${ids.yearly}, updated_at = now()
          where id = ${id}`;
        if (updated.count > 0 && audit) await createPostgresAuditLogWriter(tx).record(audit);
      });
    },

    async count() {
      const [result] = await sql<{ n: number }[]>`select count(*)::int as n from products`;
      return result?.n ?? 0;
    },
  };
}
