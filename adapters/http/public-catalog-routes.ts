import { Elysia, t } from "elysia";
import type { PublicListQuery, PublicProduct } from "../../application/catalog/browse-catalog.ts";
import { CATALOG_TOPIC } from "../../application/catalog/manage-products.ts";
import type { ChangeSignal, Page } from "../../application/shared/ports.ts";
import { page, preSerializedJson } from "./api-model.ts";
import { DeliveryModelSchema, PublicProductSchema } from "./catalog-schemas.ts";
import { createResponseCache } from "./response-cache.ts";
import { Cursor, ListLimit, pageRequest } from "./shared-schemas.ts";

export interface PublicCatalogDeps {
  readonly changes: ChangeSignal;
  listPublicProducts(query: PublicListQuery): Promise<Page<PublicProduct>>;
  getPublicProduct(slug: string): Promise<PublicProduct>;
}

const json = (body: string) => new Response(body, { headers: { "content-type": "application/json;charset=utf-8" } });

/**
 * The read-heavy public catalog, served from serialized responses that every catalog write
 * invalidates on every instance.
 */
export function createPublicCatalogRoutes(deps: PublicCatalogDeps) {
  const cache = createResponseCache();
  deps.changes.subscribe(CATALOG_TOPIC, () => cache.invalidate());

  return new Elysia({ name: "public-catalog-routes", tags: ["catalog"] })
    .get(
      "/api/products",
      async ({ query }) => {
        const normalized: PublicListQuery = {
          ...pageRequest(query),
          ...(query.delivery_model ? { delivery_model: query.delivery_model } : {}),
          ...(query.tag ? { tag: query.tag } : {}),
          ...(query.q?.trim() ? { q: query.q.trim() } : {}),
        };
        const key = `list:${JSON.stringify(normalized)}`;
        return json(await cache.get(key, () => deps.listPublicProducts(normalized)));
      },
      {
        query: t.Object({
          delivery_model: t.Optional(DeliveryModelSchema),
          tag: t.Optional(t.String({ maxLength: 40 })),
          q: t.Optional(t.String({ maxLength: 200 })),
          cursor: Cursor,
          limit: ListLimit,
        }),
        detail: {
          summary: "Published products, ordered by name, with checkout options",
          responses: preSerializedJson("A page of products", page(PublicProductSchema)),
        },
      },
    )
    .get(
      "/api/products/:slug",
      async ({ params }) => json(await cache.get(`slug:${params.slug}`, () => deps.getPublicProduct(params.slug))),
      {
        params: t.Object({ slug: t.String({ maxLength: 100 }) }),
        detail: {
          summary: "One published product by slug, with variants, prices, gateways and trial",
          responses: preSerializedJson("The product", PublicProductSchema),
        },
      },
    );
}
