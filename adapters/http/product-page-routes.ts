import { Elysia, t } from "elysia";
import type { PublicListQuery, PublicProduct } from "../../application/catalog/browse-catalog.ts";
import type { CheckoutRequest } from "../../application/checkout/calculate-checkout.ts";
import type { Buyer } from "../../application/checkout/create-checkout.ts";
import type { CheckoutResponse } from "../../application/checkout/open-checkout.ts";
import type { Page } from "../../application/shared/ports.ts";
import { ProductNotFound } from "../../domain/catalog/errors.ts";
import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import { DomainError } from "../../domain/shared/domain-error.ts";
import { ValidationFailed } from "../../domain/shared/errors.ts";
import { PROBLEM_CONTENT_TYPE } from "../../kit/problem.ts";
import { STATUS_BY_CATEGORY } from "./error-handler.ts";
import { type BrowserPages, PAGE_HEADERS } from "./page-routes.ts";
import { ProblemSchema } from "./problem-schema.ts";
import {
  type BuyFormState,
  continueToPaymentPage,
  productListPage,
  productNotFoundPage,
  productPage,
  sitemap,
} from "./product-pages.ts";

export interface ProductPageDeps {
  /** Where customers reach the shop: the canonical links and the sitemap name it. */
  readonly publicBaseUrl: string;
  listPublicProducts(query: PublicListQuery): Promise<Page<PublicProduct>>;
  getPublicProduct(slug: string): Promise<PublicProduct>;
  /** The consoles' build, which holds the buy form's script. */
  readonly pages: BrowserPages;
  createCheckout(buyer: Buyer, request: CheckoutRequest): Promise<CheckoutResponse>;
}

/** Where a field error's path points in the buy form. */
const FORM_FIELDS: Readonly<Record<string, string>> = {
  "/email": "email",
  "/name": "name",
  "/payment_gateway": "payment_gateway",
  "/items/0/variant": "variant",
  "/items": "variant",
};

/** The buy form's fields again, with what the checkout refused, said where it belongs. */
function refusedForm(form: BuyFields, error: DomainError): BuyFormState {
  const errors: Record<string, string> = {};
  for (const fieldError of error.errors ?? []) {
    const field = FORM_FIELDS[fieldError.path] ?? "variant";
    errors[field] ??= fieldError.message;
  }
  return { ...form, errors, message: error.message };
}

type BuyFields = { variant?: string; payment_gateway?: string; email?: string; name?: string };

const isWebLink = (url: string) => /^https?:\/\//i.test(url);

/** The most products a page or the sitemap lists; a sitemap holds at most 50,000. */
const MOST = 5_000;

const Html = t.String({ description: "An HTML page", contentMediaType: "text/html" });

const html = (body: string, status = 200, cacheControl = "public, max-age=60") =>
  new Response(body, {
    status,
    headers: {
      ...PAGE_HEADERS,
      "content-type": "text/html; charset=utf-8",
      // Public, and changed by an admin now and then: a short cache, revalidated.
      "cache-control": cacheControl,
    },
  });

/** An error answered as a page to a browser (a client asking for text/html), else as the problem document. */
const pageOrProblem = (description: string) => ({
  description,
  content: {
    [PROBLEM_CONTENT_TYPE]: { schema: ProblemSchema as unknown as Record<string, never> },
    "text/html": { schema: Html as unknown as Record<string, never> },
  },
});

const NOT_FOUND = "PRODUCT_NOT_FOUND: no published product has the slug; a page when the client asks for text/html";

const wantsPage = (request: Request) => request.headers.get("accept")?.includes("text/html") ?? false;

/** An answer to one buyer: never cached. */
const privateHtml = (body: string, status: number) => html(body, status, "no-store");

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
  const buyScript = async () => (await deps.pages.console()).scripts.buyForm;
  return new Elysia({ name: "product-page-routes" })
    .get("/products", async () => html(productListPage(await published(), deps.publicBaseUrl)), {
      response: Html,
      detail: { ...detail, summary: "Every published product, as a page search engines read" },
    })
    .get(
      "/products/:slug",
      async ({ params, request }) => {
        try {
          const product = await deps.getPublicProduct(params.slug);
          return html(productPage(product, deps.publicBaseUrl, {}, await buyScript()));
        } catch (error) {
          // A browser or a crawler (asking for HTML) gets a page; any other client the problem document.
          if (error instanceof ProductNotFound && wantsPage(request)) {
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
          responses: { 404: pageOrProblem(NOT_FOUND) },
        },
      },
    )
    .post(
      "/products/:slug/buy",
      async ({ params, body, request }) => {
        const form = body as BuyFields;
        let product: PublicProduct;
        try {
          product = await deps.getPublicProduct(params.slug);
        } catch (error) {
          if (error instanceof ProductNotFound && wantsPage(request)) {
            return privateHtml(productNotFoundPage(deps.publicBaseUrl), 404);
          }
          throw error;
        }
        try {
          const offered: readonly string[] = product.checkout_options.payment_gateways;
          if (form.payment_gateway && !offered.includes(form.payment_gateway)) {
            throw new ValidationFailed([
              { path: "/payment_gateway", message: "is not offered for this product", code: "GATEWAY_NOT_OFFERED" },
            ]);
          }
          const opened = await deps.createCheckout(
            { guest: { email: form.email ?? "", name: form.name } },
            {
              items: [
                {
                  product_id: product.id,
                  variant: (form.variant ?? "") as CheckoutRequest["items"][number]["variant"],
                },
              ],
              ...(form.payment_gateway ? { payment_gateway: form.payment_gateway as PaymentGatewayName } : {}),
            },
          );
          const url = opened.checkout.url;
          if (!isWebLink(url)) throw new Error("the gateway's checkout address is not a web link");
          return privateHtml(continueToPaymentPage(url, deps.publicBaseUrl), 200);
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          // The browser gets its form back with the refusal; any other client the problem document.
          if (!wantsPage(request)) throw error;
          const status = STATUS_BY_CATEGORY[error.category];
          const page = productPage(product, deps.publicBaseUrl, refusedForm(form, error), await buyScript());
          return privateHtml(page, status);
        }
      },
      {
        params: t.Object({ slug: t.String({ maxLength: 200 }) }),
        body: t.Object(
          {
            variant: t.Optional(t.String({ maxLength: 40 })),
            payment_gateway: t.Optional(t.String({ maxLength: 40 })),
            email: t.Optional(t.String({ maxLength: 320 })),
            name: t.Optional(t.String({ maxLength: 400 })),
          },
          { additionalProperties: false },
        ),
        response: { 200: Html },
        detail: {
          ...detail,
          summary:
            "The product page's buy form (application/x-www-form-urlencoded): checks out as a guest with the address given and answers a page that moves on to the gateway's hosted checkout; a refusal is the product page again with the form's errors (for text/html), else the problem document",
          responses: {
            404: pageOrProblem(NOT_FOUND),
            422: pageOrProblem(
              "VALIDATION_FAILED: the address, the variant or the gateway is refused, each field named; the product page with the form's errors when the client asks for text/html",
            ),
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
