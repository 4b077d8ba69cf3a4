import type { AuditLogWriter } from "../../../application/audit/ports.ts";
import type { ProductRepository, ProductWithMappings } from "../../../application/catalog/ports.ts";
import { SlugTaken } from "../../../domain/catalog/errors.ts";
import type { PricingMapping } from "../../../domain/catalog/pricing.ts";
import type { Product, ProductDefinition } from "../../../domain/catalog/product.ts";
import { ValidationFailed } from "../../../domain/shared/errors.ts";
import { createInMemoryAuditLogWriter } from "./in-memory-audit-log-writer.ts";

type MappingSource = { readonly byProduct: ReadonlyMap<string, readonly PricingMapping[]> };

const encodeCursor = (product: Product) =>
  Buffer.from(JSON.stringify([product.name, product.id])).toString("base64url");

function decodeCursor(cursor: string): [string, string] {
  try {
    const key = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    const [name, id] = Array.isArray(key) && key.length === 2 ? key : [];
    if (typeof name === "string" && typeof id === "string") return [name, id];
  } catch {
    // Falls through to the refusal below, as the real repository does.
  }
  throw new ValidationFailed([{ path: "/cursor", code: "INVALID_CURSOR", message: "is not a cursor this API issued" }]);
}

/** (name, id) order, the keyset the real repository pages by. */
const byNameThenId = (a: Product, b: Product) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/**
 * Products in memory with the real repository's rules: unique slugs, filters, (name, id) keyset
 * pages with an opaque cursor, and each product's mappings joined in from `mappings`. A write's
 * audit entry goes to `trail` when the write happened.
 */
export function createInMemoryProductRepository(
  mappings: MappingSource = { byProduct: new Map() },
  trail: AuditLogWriter = createInMemoryAuditLogWriter(),
): ProductRepository & { readonly all: () => Product[] } {
  const products = new Map<string, Product>();
  const slugTaken = (slug: string, except?: string) =>
    [...products.values()].some((p) => p.slug === slug && p.id !== except);
  const withMappings = (product: Product): ProductWithMappings => ({
    product,
    mappings: [...(mappings.byProduct.get(product.id) ?? [])],
  });

  return {
    all: () => [...products.values()].sort(byNameThenId),
    async insert(definition, audit) {
      if (slugTaken(definition.slug)) return undefined;
      const now = new Date();
      const product: Product = { ...definition, id: crypto.randomUUID(), created_at: now, updated_at: now };
      products.set(product.id, product);
      if (audit) await trail.record(audit(product));
      return product;
    },
    async update(id, definition: ProductDefinition, audit) {
      const existing = products.get(id);
      if (!existing) return undefined;
      if (slugTaken(definition.slug, id)) throw new SlugTaken(definition.slug);
      const product: Product = { ...definition, id, created_at: existing.created_at, updated_at: new Date() };
      products.set(id, product);
      if (audit) await trail.record(audit);
      return product;
    },
    findById: async (id) => products.get(id),
    findBySlug: async (slug) => [...products.values()].find((p) => p.slug === slug),
    async findWithMappings(ids) {
      const found = new Map<string, ProductWithMappings>();
      for (const id of ids) {
        const product = products.get(id);
        if (product) found.set(id, withMappings(product));
      }
      return found;
    },
    async list(filter, page) {
      const after = page.cursor ? decodeCursor(page.cursor) : undefined;
      const q = filter.q?.toLowerCase();
      const matching = [...products.values()]
        .filter(
          (p) =>
            (!filter.status || p.status === filter.status) &&
            (!filter.delivery_model || p.delivery_model === filter.delivery_model) &&
            (!filter.tag || p.tags.includes(filter.tag)) &&
            (!q || p.name.toLowerCase().includes(q) || p.description.toLowerCase().includes(q)) &&
            (!after || p.name > after[0] || (p.name === after[0] && p.id > after[1])),
        )
        .sort(byNameThenId);
      const items = matching.slice(0, page.limit);
      const last = items.at(-1);
      return {
        items: items.map(withMappings),
        next_cursor: matching.length > page.limit && last ? encodeCursor(last) : null,
      };
    },
    count: async () => products.size,
    async setGatewayAIds(id, ids, audit) {
      const existing = products.get(id);
      if (!existing) return;
      if (audit) await trail.record(audit);
      products.set(id, {
        ...existing,
        gwa_product_id_regular: ids.regular,
        gwa_product_id_extended: ids.extended,
        gwa_product_id_monthly: ids.monthly,
        gwa_product_id_yearly: ids.yearly,
        updated_at: new Date(),
      });
    },
  };
}
