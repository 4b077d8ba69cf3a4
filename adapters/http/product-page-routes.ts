import { Elysia, t } from "elysia";
import type { PublicListQuery, PublicProduct } from "../../application/catalog/browse-catalog.ts";
import type { Page } from "../../application/shared/ports.ts";
import { ProductNotFound } from "../../domain/catalog/errors.ts";
import { PROBLEM_CONTENT_TYPE } from "../../kit/problem.ts";
import { PAGE_HEADERS } from "./page-routes.ts";
import { ProblemSchema } from "./problem-schema.ts";
import { productListPage, productNotFoundPage, productPage, sitemap } from "./product-pages.ts";

export interface ProductPageDeps {
  /** Where customers reach the shop: the canonical links and the sitemap name it. */
  readonly publicBaseUrl: string;
  listPublicProducts(query: PublicListQuery): Promise<Page<PublicProduct>>;
  getPublicProduct(slug: string): Promise<PublicProduct>;
}

/** The most products a page or the sitemap lists; a sitemap holds at most 50,000. */
const MOST = 5_000;

const Html = t.String({ description: "An HTML page", contentMediaType: "text/html" });

const html = (body: string, status = 200) =>
  new Response(body, {
    status,
    headers: {
      ...PAGE_HEADERS,
      "content-type": "text/html; charset=utf-8",
      // Public, and changed by an admin now and then: a short cache, revalidated.
      "cache-control": "public, max-age=60",
    },
  });

/**
 * The public product pages, rendered by the server so that search engines and link previews read
 * them without JavaScript, and the sitemap that lists them. They load nothing from another host.
 */
export function createProductPageRoutes(deps: ProductPageDeps) {
  const published = async (): Promise<PublicProduct[]> => {
    const all: PublicProduct[] = [];
    let cursor: string | undefined;
    do {
      const page = await deps.listPublicProducts({ limit: 100, ...(cursor ? { cursor } : {}) });
      all.push(...page.items);
      cursor = page.next_cursor ?? undefined;
    } while (cursor && all.length < MOST);
    return all.slice(0, MOST);
  };
  const detail = { tags: ["pages"] };
  return new Elysia({ name: "product-page-routes" })
    .get("/products", async () => html(productListPage(await published(), deps.publicBaseUrl)), {
      response: Html,
      detail: { ...detail, summary: "Every published product, as a page search engines read" },
    })
    .get(
      "/products/:slug",
      async ({ params, request }) => {
        try {
          return html(productPage(await deps.getPublicProduct(params.slug), deps.publicBaseUrl));
        } catch (error) {
          // A browser or a crawler (asking for HTML) gets a page; any other client the problem document.
          const wantsPage = request.headers.get("accept")?.includes("text/html") ?? false;
          if (error instanceof ProductNotFound && wantsPage) {
            return html(productNotFoundPage(deps.publicBaseUrl), 404);
          }
          throw error;
        }
      },
      {
        params: t.Object({ slug: t.String({ maxLength: 200 }) }),
        response: { 200: Html },
        detail: {
          ...detail,
          summary:
            "A published product's page: its SEO title and description, canonical link, Open Graph tags and schema.org Product JSON-LD with an Offer per variant",
          responses: {
            404: {
              description:
                "PRODUCT_NOT_FOUND: no published product has the slug; a page when the client asks for text/html",
              content: {
                [PROBLEM_CONTENT_TYPE]: { schema: ProblemSchema as unknown as Record<string, never> },
                "text/html": { schema: Html as unknown as Record<string, never> },
              },
            },
          },
        },
      },
    )
    .get(
      "/sitemap.xml",
      async () =>
        new Response(sitemap(await published(), deps.publicBaseUrl), {
          headers: { "content-type": "application/xml; charset=utf-8", "cache-control": "public, max-age=300" },
        }),
      {
        response: t.String({ description: "A sitemaps.org 0.9 sitemap", contentMediaType: "application/xml" }),
        detail: { ...detail, summary: "The sitemap: the product list and every published product's page" },
      },
    );
}
