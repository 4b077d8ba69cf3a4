import type postgres from "postgres";
import type { ProductRepository, ProductWithMappings } from "../../application/catalog/ports.ts";
import type { Page } from "../../application/shared/ports.ts";
import { type Product, type ProductDefinition, SlugTaken } from "../../domain/catalog/product.ts";
import { decodeCursor, encodeCursor } from "./cursor.ts";
import type { Queryable, Sql } from "./database.ts";
import { listMappingsOf } from "./pricing-mapping-repository.ts";

const COLUMNS = [
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

type Writable = Exclude<(typeof COLUMNS)[number], "id" | "created_at" | "updated_at">;
const WRITABLE = COLUMNS.filter((c): c is Writable => c !== "id" && c !== "created_at" && c !== "updated_at");

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === "23505";

function row(definition: ProductDefinition, sql: Queryable): Record<Writable, postgres.ParameterOrJSON<never>> {
  const values = { ...definition } as unknown as Record<Writable, postgres.ParameterOrJSON<never>>;
  // jsonb goes through sql.json so postgres.js sends the object as JSON.
  values.fulfillment_config = sql.json(definition.fulfillment_config as postgres.JSONValue);
  return values;
}

export function createPostgresProductRepository(sql: Sql): ProductRepository {
  const columns = sql(COLUMNS as unknown as string[]);

  return {
    async insert(definition) {
      try {
        const [product] = await sql<Product[]>`
          insert into products ${sql(row(definition, sql), WRITABLE)}
          returning ${columns}`;
        return product;
      } catch (error) {
        if (isUniqueViolation(error)) return undefined;
        throw error;
      }
    },

    async update(id, definition) {
      if (!UUID.test(id)) return undefined;
      try {
        const [product] = await sql<Product[]>`
          update products set ${sql(row(definition, sql), WRITABLE)}, updated_at = now()
          where id = ${id}
          returning ${columns}`;
        return product;
      } catch (error) {
        if (isUniqueViolation(error)) throw new SlugTaken(definition.slug);
        throw error;
      }
    },

    async findById(id) {
      if (!UUID.test(id)) return undefined;
      const [product] = await sql<Product[]>`select ${columns} from products where id = ${id}`;
      return product;
    },

    async findBySlug(slug) {
      const [product] = await sql<Product[]>`select ${columns} from products where slug = ${slug}`;
      return product;
    },

    async list(filter, page): Promise<Page<ProductWithMappings>> {
      const after = page.cursor ? decodeCursor(page.cursor, 2) : undefined;
      const pattern = filter.q ? `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
      const products = await sql<Product[]>`
        select ${columns} from products
        where true
          ${filter.status ? sql`and status = ${filter.status}` : sql``}
          ${filter.delivery_model ? sql`and delivery_model = ${filter.delivery_model}` : sql``}
          ${filter.tag ? sql`and tags @> array[${filter.tag}]::text[]` : sql``}
          ${pattern ? sql`and (name ilike ${pattern} or description ilike ${pattern})` : sql``}
          ${after ? sql`and (name, id) > (${String(after[0])}, ${String(after[1])}::uuid)` : sql``}
        order by name, id
        limit ${page.limit + 1}`;
      const items = products.slice(0, page.limit);
      const mappings = await listMappingsOf(
        sql,
        items.map((p) => p.id),
      );
      const last = items.at(-1);
      return {
        items: items.map((product) => ({ product, mappings: mappings.get(product.id) ?? [] })),
        next_cursor: products.length > page.limit && last ? encodeCursor([last.name, last.id]) : null,
      };
    },

    async findWithMappings(ids) {
      const found = new Map<string, ProductWithMappings>();
      const valid = ids.filter((id) => UUID.test(id));
      if (valid.length === 0) return found;
      const products = await sql<Product[]>`select ${columns} from products where id in ${sql(valid)}`;
      const mappings = await listMappingsOf(
        sql,
        products.map((p) => p.id),
      );
      for (const product of products) found.set(product.id, { product, mappings: mappings.get(product.id) ?? [] });
      return found;
    },

    async setGatewayAIds(id, ids) {
      await sql`
        update products set
          gwa_product_id_regular = ${ids.regular}, gwa_product_id_extended = ${ids.extended},
          gwa_product_id_monthly = ${ids.monthly}, gwa_product_id_yearly = ${ids.yearly}, updated_at = now()
        where id = ${id}`;
    },

    async count() {
      const [result] = await sql<{ n: number }[]>`select count(*)::int as n from products`;
      return result?.n ?? 0;
    },
  };
}
