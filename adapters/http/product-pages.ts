import type { PublicProduct } from "../../application/catalog/browse-catalog.ts";
import { currencyExponent, formatMinorUnits } from "../../domain/shared/money.ts";
import { escapeHtml } from "./html.ts";

/**
 * JSON inside `<script type="application/ld+json">`: `<`, `>` and `&` escaped as JSON escapes, so no
 * value (a product name holding `</script>`) can end the block early.
 */
const jsonInScript = (value: unknown) =>
  JSON.stringify(value).replaceAll("<", "\\u003c").replaceAll(">", "\\u003e").replaceAll("&", "\\u0026");

/** A price in minor units as the decimal schema.org and people read: 4900 USD is "49.00". */
export function decimalPrice(minor: number, currency: string): string {
  const digits = currencyExponent(currency);
  return (minor / 10 ** digits).toFixed(digits);
}

const VARIANT_WORDS: Readonly<Record<string, string>> = {
  monthly: "Monthly",
  yearly: "Yearly",
  one_time: "One-time purchase",
  regular: "Regular license",
  extended: "Extended license",
};

const variantWords = (variant: string) => VARIANT_WORDS[variant] ?? variant;

const GATEWAY_WORDS: Readonly<Record<string, string>> = { gateway_a: "Gateway A", gateway_b: "Gateway B" };

/** What the buy form was given, to show again with what went wrong. */
export interface BuyFormState {
  readonly variant?: string;
  readonly payment_gateway?: string;
  readonly email?: string;
  readonly name?: string;
  /** Field errors by field name, and a message for the form as a whole. */
  readonly errors?: Readonly<Record<string, string>>;
  readonly message?: string;
}

const option = (value: string, label: string, chosen: string | undefined) =>
  `<option value="${escapeHtml(value)}"${value === chosen ? " selected" : ""}>${escapeHtml(label)}</option>`;

const fieldError = (state: BuyFormState, field: string) =>
  state.errors?.[field] ? ` <strong class="error" id="${field}-error">${escapeHtml(state.errors[field])}</strong>` : "";

/**
 * The buy form: a variant, a gateway and the buyer's address. It posts to this site, which opens
 * the gateway's hosted checkout; the gateway returns the buyer to the order status page. It works
 * without JavaScript; a signed-in customer's address belongs to the account, so it is left empty
 * and the order joins the account once the address is the account's proven one.
 */
function buyForm(product: PublicProduct, state: BuyFormState): string {
  const { variants, payment_gateways, default_payment_gateway } = product.checkout_options;
  if (variants.length === 0) return "";
  const variantOptions = variants
    .map((v) =>
      option(v.variant, `${variantWords(v.variant)}: ${formatMinorUnits(v.price, v.currency)}`, state.variant),
    )
    .join("");
  const gatewayOptions = payment_gateways
    .map((g) => option(g, GATEWAY_WORDS[g] ?? g, state.payment_gateway ?? default_payment_gateway))
    .join("");
  const message = state.message ? `<p role="alert" class="error">${escapeHtml(state.message)}</p>` : "";
  return `<form method="post" action="/products/${encodeURIComponent(product.slug)}/buy" class="buy" data-product-id="${escapeHtml(product.id)}">
<h2>Buy</h2>
${message}<label>Plan <select name="variant" required>${variantOptions}</select>${fieldError(state, "variant")}</label>
<label>Pay with <select name="payment_gateway" required>${gatewayOptions}</select>${fieldError(state, "payment_gateway")}</label>
<div class="guest-only">
<label>Email <input type="email" name="email" autocomplete="email" required maxlength="254" value="${escapeHtml(state.email ?? "")}">${fieldError(state, "email")}</label>
<label>Name (optional) <input name="name" autocomplete="name" maxlength="200" value="${escapeHtml(state.name ?? "")}">${fieldError(state, "name")}</label>
<p class="note">We email your receipt, your delivery and a link to follow your order to this address. With an account? Use its address, or sign in first: the order joins it.</p>
</div>
<button type="submit">Continue to payment</button>
</form>`;
}

/** The page's shell: our stylesheet only, nothing from another host, the description and canonical set. */
function page(head: { title: string; description: string; canonical: string; extra?: string }, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(head.title)}</title>
<meta name="description" content="${escapeHtml(head.description)}">
<link rel="canonical" href="${escapeHtml(head.canonical)}">
<link rel="icon" href="/favicon.ico">
${head.extra ?? ""}
<style>
body { font-family: system-ui, sans-serif; line-height: 1.5; color: #1f2328; max-width: 48rem; margin: 0 auto; padding: 1rem; }
ul.products { list-style: none; padding: 0; }
ul.products li { border-bottom: 1px solid #d0d7de; padding: 0.75rem 0; }
table { border-collapse: collapse; }
form.buy label { display: block; margin: 0.5rem 0; }
.error { color: #b42318; }
.note { color: #57606a; }
th, td { text-align: left; padding: 0.25rem 1rem 0.25rem 0; }
</style>
</head>
<body>
<header><a href="/products">All products</a> · <a href="/account">Your account</a></header>
<main>
${body}
</main>
</body>
</html>
`;
}

const descriptionOf = (product: PublicProduct) => (product.seo_description ?? product.description).slice(0, 300);

/** `/products`: every published product, linked to its page. */
export function productListPage(products: readonly PublicProduct[], baseUrl: string): string {
  const items = products
    .map(
      (product) =>
        `<li><h2><a href="/products/${encodeURIComponent(product.slug)}">${escapeHtml(product.name)}</a></h2>` +
        `<p>${escapeHtml(descriptionOf(product))}</p></li>`,
    )
    .join("\n");
  return page(
    {
      title: "Products",
      description: "Everything the shop sells, each delivered automatically once it is paid for.",
      canonical: new URL("/products", baseUrl).href,
    },
    `<h1>Products</h1>\n${products.length === 0 ? "<p>Nothing is for sale yet.</p>" : `<ul class="products">\n${items}\n</ul>`}`,
  );
}

/**
 * `/products/{slug}`: the product with its SEO fields as title and description, a canonical link,
 * Open Graph tags, and schema.org `Product` JSON-LD with an `Offer` per variant and its price.
 */
export function productPage(
  product: PublicProduct,
  baseUrl: string,
  form: BuyFormState = {},
  buyScript?: string,
): string {
  const url = new URL(`/products/${encodeURIComponent(product.slug)}`, baseUrl).href;
  const title = product.seo_title ?? product.name;
  const description = descriptionOf(product);
  const { variants } = product.checkout_options;
  const structured = {
    "@context": "https://schema.org",
    "@type": "Product",
    name: product.name,
    description: product.description,
    sku: product.slug,
    url,
    offers: variants.map((variant) => ({
      "@type": "Offer",
      name: variantWords(variant.variant),
      price: decimalPrice(variant.price, variant.currency),
      priceCurrency: variant.currency,
      availability: "https://schema.org/InStock",
      url,
    })),
  };
  const extra = [
    `<meta property="og:type" content="product">`,
    `<meta property="og:title" content="${escapeHtml(title)}">`,
    `<meta property="og:description" content="${escapeHtml(description)}">`,
    `<meta property="og:url" content="${escapeHtml(url)}">`,
    `<script type="application/ld+json">${jsonInScript(structured)}</script>`,
    ...(buyScript ? [`<script type="module" src="/assets/${escapeHtml(buyScript)}"></script>`] : []),
  ].join("\n");
  const rows = variants
    .map(
      (variant) =>
        `<tr><td>${escapeHtml(variantWords(variant.variant))}</td>` +
        `<td>${escapeHtml(formatMinorUnits(variant.price, variant.currency))}</td></tr>`,
    )
    .join("\n");
  const trial = product.checkout_options.trial_days
    ? `<p>Try it free for ${product.checkout_options.trial_days} days.</p>`
    : "";
  return page(
    { title, description, canonical: url, extra },
    `<h1>${escapeHtml(product.name)}</h1>
<p>${escapeHtml(product.description)}</p>
${trial}
${variants.length === 0 ? "<p>Not on sale right now.</p>" : `<table>\n<caption>Prices</caption>\n<thead><tr><th scope="col">Option</th><th scope="col">Price</th></tr></thead>\n<tbody>\n${rows}\n</tbody>\n</table>`}
${buyForm(product, form)}`,
  );
}

/**
 * What the buy form answers once the checkout is open: a page that moves on to the gateway's
 * hosted checkout (a meta refresh, so that the page's form-action policy, which keeps forms on this
 * site, does not stop the move), with a link should it not.
 */
export function continueToPaymentPage(checkoutUrl: string, baseUrl: string): string {
  const url = escapeHtml(checkoutUrl);
  return page(
    {
      title: "Continue to payment",
      description: "Taking you to the payment page.",
      canonical: new URL("/products", baseUrl).href,
      extra: `<meta http-equiv="refresh" content="0; url=${url}">\n<meta name="robots" content="noindex">`,
    },
    `<h1>Continue to payment</h1>\n<p><a href="${url}" rel="noreferrer">Go to the payment page</a>.</p>`,
  );
}

/** The page for a slug no published product has. */
export function productNotFoundPage(baseUrl: string): string {
  return page(
    {
      title: "Product not found",
      description: "No published product lives at this address.",
      canonical: new URL("/products", baseUrl).href,
    },
    `<h1>Product not found</h1>\n<p>No published product lives at this address. <a href="/products">See every product</a>.</p>`,
  );
}

/** `/sitemap.xml` (sitemaps.org 0.9): the product list and every published product's page. */
export function sitemap(products: readonly PublicProduct[], baseUrl: string): string {
  const urls = [
    new URL("/products", baseUrl).href,
    ...products.map((p) => new URL(`/products/${encodeURIComponent(p.slug)}`, baseUrl).href),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${urls.map((loc) => `<url><loc>${escapeHtml(loc)}</loc></url>`).join("\n")}
</urlset>
`;
}
