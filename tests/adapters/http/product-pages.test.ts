import { beforeAll, describe, expect, test } from "bun:test";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { aPointOfSaleProduct } from "../../support/builders/products.ts";
import { useTestDatabase } from "../../support/database.ts";
import { call, expectProblemShape } from "../../support/http.ts";

const db = useTestDatabase();
const BASE = "https://shop.example";
let marketplace: ReturnType<typeof createTestMarketplace>;
let admin = "";

beforeAll(async () => {
  marketplace = createTestMarketplace(db.current.sql, {}, { env: { PUBLIC_BASE_URL: BASE } });
  admin = await tokenFor("admin");
});
db.onTeardown(() => marketplace.close());

async function product(overrides: object) {
  const created = await call(marketplace.app, "POST", "/api/admin/products", {
    token: admin,
    body: aPointOfSaleProduct(overrides),
  });
  expect(created.status).toBe(201);
  return created.body as { id: string; slug: string };
}

/** As a browser asks. */
const page = (path: string) =>
  marketplace.app.handle(new Request(`http://localhost${path}`, { headers: { accept: "text/html,*/*;q=0.8" } }));

/** The JSON-LD block of a page, parsed. */
function structuredData(html: string): Record<string, unknown> {
  const block = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (!block) throw new Error("no JSON-LD block");
  return JSON.parse(block) as Record<string, unknown>;
}

describe("the public product pages", () => {
  test("a product's page carries its SEO title and description, canonical link, Open Graph and Product JSON-LD", async () => {
    const { slug } = await product({ seo_title: "Tillpoint POS", seo_description: "Sell in store & online" });
    const response = await page(`/products/${slug}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
    const html = await response.text();
    expect(html).toContain("<title>Tillpoint POS</title>");
    expect(html).toContain('<meta name="description" content="Sell in store &#38; online">');
    expect(html).toContain(`<link rel="canonical" href="${BASE}/products/${slug}">`);
    expect(html).toContain('<meta property="og:title" content="Tillpoint POS">');
    expect(html).toContain(`<meta property="og:url" content="${BASE}/products/${slug}">`);
    expect(structuredData(html)).toMatchObject({
      "@context": "https://schema.org",
      "@type": "Product",
      sku: slug,
      url: `${BASE}/products/${slug}`,
      offers: [
        { "@type": "Offer", name: "Monthly", price: "31.00", priceCurrency: "USD" },
        { "@type": "Offer", name: "Yearly", price: "310.00", priceCurrency: "USD" },
      ],
    });
    // Nothing is loaded from another host: no script or stylesheet, no image, from anywhere but here.
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)="https?:\/\/(?!shop\.example)/);
    // The one script is our own: the buy form's, for a customer signed in.
    expect(html.match(/<script[^>]+src="[^"]*"/g)).toEqual([
      expect.stringMatching(/src="\/assets\/buy-form-[^"]+\.js"$/),
    ]);
  });

  test("a name that is markup stays text, and cannot end the JSON-LD block", async () => {
    const { slug } = await product({ name: "Evil </script><script>alert(1)</script>", seo_title: null });
    const html = await (await page(`/products/${slug}`)).text();
    expect(html).toContain("<title>Evil &#60;/script&#62;&#60;script&#62;alert(1)&#60;/script&#62;</title>");
    // The JSON-LD block and the buy form's script: the name opened none.
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(structuredData(html).name).toBe("Evil </script><script>alert(1)</script>");
  });

  test("an unknown or unpublished slug is a 404 page for a browser, a problem document for any other client", async () => {
    const draft = await product({ status: "draft" });
    for (const path of [`/products/${draft.slug}`, "/products/no-such-product"]) {
      const response = await page(path);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(await response.text()).toContain("<h1>Product not found</h1>");
      expectProblemShape(await call(marketplace.app, "GET", path), 404, "PRODUCT_NOT_FOUND");
    }
  });

  test("the list and the sitemap name every published product, and no draft", async () => {
    const published = await product({});
    const draft = await product({ status: "draft" });
    const list = await (await page("/products")).text();
    expect(list).toContain(`href="/products/${published.slug}"`);
    expect(list).not.toContain(draft.slug);
    const response = await page("/sitemap.xml");
    expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    const xml = await response.text();
    expect(xml).toStartWith('<?xml version="1.0" encoding="UTF-8"?>');
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(xml).toContain(`<url><loc>${BASE}/products</loc></url>`);
    expect(xml).toContain(`<url><loc>${BASE}/products/${published.slug}</loc></url>`);
    expect(xml).not.toContain(draft.slug);
  });
});
