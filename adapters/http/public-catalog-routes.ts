import { Elysia, t } from "elysia";
import type { PublicListQuery, PublicProduct } from "../../application/catalog/browse-catalog.ts";
import { CATALOG_TOPIC } from "../../application/catalog/manage-products.ts";
import type { ChangeSignal, Page } from "../../application/shared/ports.ts";
import { DeliveryModelSchema, PublicProductSchema } from "./catalog-schemas.ts";
import { page, preSerializedJson } from "./openapi-models.ts";
import { answerResponse, createResponseCache, type PreparedAnswer } from "./response-cache.ts";
import { Cursor, ListLimit, pageRequest } from "./shared-schemas.ts";

export interface PublicCatalogDeps {
  readonly changes: ChangeSignal;
  listPublicProducts(query: PublicListQuery): Promise<Page<PublicProduct>>;
  getPublicProduct(slug: string): Promise<PublicProduct>;
}

/** The list route's query once Elysia has validated it and filled in its defaults. */
interface ListQuery {
  readonly delivery_model?: PublicListQuery["delivery_model"];
  readonly tag?: string;
  readonly q?: string;
  readonly cursor?: string;
  readonly limit: number;
}

const listKey = (query: ListQuery) => {
  const normalized: PublicListQuery = {
    ...pageRequest(query),
    ...(query.delivery_model ? { delivery_model: query.delivery_model } : {}),
    ...(query.tag ? { tag: query.tag } : {}),
    ...(query.q?.trim() ? { q: query.q.trim() } : {}),
  };
  return { normalized, key: `list:${JSON.stringify(normalized)}` };
};

/**
 * The read-heavy public catalog as serialized answers (bytes and entity tag), which every catalog
 * write invalidates on every instance. The routes compute what is missing; the fast path in front
 * of Elysia (catalog-fast-path.ts) only reads what is there.
 */
export function createPublicCatalogAnswers(deps: PublicCatalogDeps) {
  // Two caches: the first page and the products (one entry per product that exists: a slug that
  // does not is never stored), and the searches and later pages, which a caller can vary without
  // end. Emptying the second when it is full never costs the hot answers theirs.
  const pinned = createResponseCache(100_000);
  const queries = createResponseCache();
  deps.changes.subscribe(CATALOG_TOPIC, () => {
    pinned.invalidate();
    queries.invalidate();
  });
  // The list without a query string: what Elysia makes of an empty query (the default limit).
  const firstPageKey = listKey({ limit: (ListLimit as { default?: number }).default ?? 20 }).key;
  return {
    list(query: ListQuery): Promise<PreparedAnswer> {
      const { normalized, key } = listKey(query);
      return (key === firstPageKey ? pinned : queries).get(key, () => deps.listPublicProducts(normalized));
    },
    product(slug: string): Promise<PreparedAnswer> {
      return pinned.get(`slug:${slug}`, () => deps.getPublicProduct(slug));
    },
    /** The cached answer to `GET /api/products` without a query string, if any. */
    cachedFirstPage(): PreparedAnswer | undefined {
      return pinned.peek(firstPageKey);
    },
    /** The cached answer to `GET /api/products/{slug}`, if any. */
    cachedProduct(slug: string): PreparedAnswer | undefined {
      return pinned.peek(`slug:${slug}`);
    },
  };
}

export type PublicCatalogAnswers = ReturnType<typeof createPublicCatalogAnswers>;

/**
 * The read-heavy public catalog, served from serialized responses that every catalog write
 * invalidates on every instance. Each answer carries a strong `ETag` and `Cache-Control: no-cache`;
 * `If-None-Match` with the current tag is a 304.
 */
export function createPublicCatalogRoutes(
  deps: PublicCatalogDeps,
  answers: PublicCatalogAnswers = createPublicCatalogAnswers(deps),
) {
  return new Elysia({ name: "public-catalog-routes", tags: ["catalog"] })
    .get(
      "/api/products",
      async ({ query, request }) => answerResponse(await answers.list(query), request.headers.get("if-none-match")),
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
      async ({ params, request }) =>
        answerResponse(await answers.product(params.slug), request.headers.get("if-none-match")),
      {
        params: t.Object({ slug: t.String({ maxLength: 100 }) }),
        detail: {
          summary: "One published product by slug, with variants, prices, gateways and trial",
          responses: preSerializedJson("The product", PublicProductSchema),
        },
      },
    );
}
