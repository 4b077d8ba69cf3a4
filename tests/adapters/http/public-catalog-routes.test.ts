import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createPublicCatalogAnswers, type PublicCatalogDeps } from "../../../adapters/http/public-catalog-routes.ts";
import { openDatabase } from "../../../adapters/postgres/database.ts";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { aLicenseProduct, aPointOfSaleProduct, subscriptionMappings } from "../../support/builders/products.ts";
import { hasRealPostgres, useTestDatabase } from "../../support/database.ts";
import { call, expectProblemShape } from "../../support/http.ts";

const db = useTestDatabase();
let marketplace: ReturnType<typeof createTestMarketplace>;
let admin = "";
const app = () => marketplace.app;

beforeAll(async () => {
  marketplace = createTestMarketplace(db.current.sql);
  admin = await tokenFor("admin");
});
afterAll(async () => {
  await marketplace.close();
});

async function create(input: object) {
  const response = await call(app(), "POST", "/api/admin/products", { token: admin, body: input });
  expect(response.status).toBe(201);
  return response.body as { id: string; slug: string; name: string };
}

const slugs = (body: { items: { slug: string }[] }) => body.items.map((p) => p.slug);

describe("public catalog", () => {
  test("lists published products only and hides every internal field", async () => {
    const published = await create(aPointOfSaleProduct({ tags: ["leaktest"] }));
    const draft = await create(aPointOfSaleProduct({ status: "draft", tags: ["leaktest"] }));
    const archived = await create(aPointOfSaleProduct({ tags: ["leaktest"] }));
    await call(app(), "DELETE", `/api/admin/products/${archived.id}`, { token: admin });

    const list = await call(app(), "GET", "/api/products?tag=leaktest");
    expect(slugs(list.body)).toEqual([published.slug]);
    const one = await call(app(), "GET", `/api/products/${published.slug}`);
    expect(one.status).toBe(200);
    for (const hidden of [draft.slug, archived.slug]) {
      expectProblemShape(await call(app(), "GET", `/api/products/${hidden}`), 404, "PRODUCT_NOT_FOUND");
    }
    for (const text of [JSON.stringify(list.body), JSON.stringify(one.body)]) {
      for (const secretish of [
        "fulfillment_config",
        "management",
        "credentials_ref",
        "pos_provider_token",
        "provider.example.com",
        "fulfillment_driver",
        "external_product_ref",
        "gwa_product_id",
        "repo_path",
      ]) {
        expect(text).not.toContain(secretish);
      }
    }
  });

  test("a product page carries its checkout options", async () => {
    const product = await create(aPointOfSaleProduct());
    await call(app(), "POST", "/api/admin/products/pricing-mappings/bulk", {
      token: admin,
      body: { product_id: product.id, mappings: subscriptionMappings(2500, 25000) },
    });
    const page = await call(app(), "GET", `/api/products/${product.slug}`);
    expect(page.body.checkout_options).toEqual({
      variants: [
        { variant: "monthly", payment_type: "subscription", billing_interval: "monthly", price: 2500, currency: "USD" },
        { variant: "yearly", payment_type: "subscription", billing_interval: "yearly", price: 25000, currency: "USD" },
      ],
      payment_gateways: ["gateway_a", "gateway_b"],
      default_payment_gateway: "gateway_b",
      trial_days: 14,
    });
  });

  test("filters by delivery model, tag and text, and pages deterministically", async () => {
    const tag = `page-${crypto.randomUUID().slice(0, 6)}`;
    const made = [];
    for (const name of ["Delta Tool", "Alpha Tool", "Charlie Tool", "Bravo Tool", "Echo Tool"]) {
      made.push(await create(aLicenseProduct({ name, tags: [tag] })));
    }
    const expected = [...made].sort((a, b) => a.name.localeCompare(b.name)).map((p) => p.slug);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: { slug: string }[]; next_cursor: string | null } } = await call(
        app(),
        "GET",
        `/api/products?tag=${tag}&limit=2${cursor ? `&cursor=${cursor}` : ""}`,
      );
      seen.push(...slugs(page.body));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(expected);

    const byModel = await call(app(), "GET", `/api/products?tag=${tag}&delivery_model=saas_multitenant`);
    expect(byModel.body.items).toEqual([]);
    const byText = await call(app(), "GET", `/api/products?tag=${tag}&q=charlie`);
    expect(slugs(byText.body)).toEqual([made[2]?.slug ?? "missing"]);
    const wildcard = await call(app(), "GET", `/api/products?tag=${tag}&q=%25`);
    expect(wildcard.body.items).toEqual([]);
  });

  test("without limit a list holds 20 items at most, the rest on the next page", async () => {
    const tag = `default-${crypto.randomUUID().slice(0, 6)}`;
    for (let i = 0; i < 21; i++) await create(aLicenseProduct({ tags: [tag] }));

    const first = await call(app(), "GET", `/api/products?tag=${tag}`);
    expect(first.body.items).toHaveLength(20);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const rest = await call(app(), "GET", `/api/products?tag=${tag}&cursor=${first.body.next_cursor}`);
    expect(rest.body.items).toHaveLength(1);
    expect(rest.body.next_cursor).toBeNull();
    const admin20 = await call(app(), "GET", `/api/admin/products?tag=${tag}`, { token: admin });
    expect(admin20.body.items).toHaveLength(20);
  });

  test("bad query values are 422 problems", async () => {
    expectProblemShape(await call(app(), "GET", "/api/products?cursor=garbage"), 422, "VALIDATION_FAILED");
    expectProblemShape(await call(app(), "GET", "/api/products?limit=1000"), 422, "VALIDATION_FAILED");
    expectProblemShape(await call(app(), "GET", "/api/products?delivery_model=teleport"), 422, "VALIDATION_FAILED");
  });

  test("a price change shows at once on the same instance, despite the cache", async () => {
    const product = await create(aPointOfSaleProduct());
    const before = await call(app(), "GET", `/api/products/${product.slug}`);
    expect(before.body.checkout_options.variants[0].price).toBe(3100);
    await call(app(), "POST", "/api/admin/products/pricing-mappings/bulk", {
      token: admin,
      body: { product_id: product.id, mappings: subscriptionMappings(2000, 20000) },
    });
    const after = await call(app(), "GET", `/api/products/${product.slug}`);
    expect(after.body.checkout_options.variants[0].price).toBe(2000);
  });
});

describe.skipIf(!hasRealPostgres)("two instances on one database", () => {
  test("a price change through instance A shows on instance B within 1 s", async () => {
    const other = await openDatabase({ url: db.current.url, dataDir: "", poolMax: 4 });
    const instanceB = createTestMarketplace(other.sql);
    try {
      const product = await create(aPointOfSaleProduct({ tags: ["cross-instance"] }));
      const listB = () => call(instanceB.app, "GET", "/api/products?tag=cross-instance");
      const priceOnB = async () => (await listB()).body.items[0].checkout_options.variants[0].price as number;
      expect(await priceOnB()).toBe(3100);
      await Bun.sleep(100);
      expect(await priceOnB()).toBe(3100);

      const changedAt = performance.now();
      await call(app(), "POST", "/api/admin/products/pricing-mappings/bulk", {
        token: admin,
        body: { product_id: product.id, mappings: subscriptionMappings(1999, 19999) },
      });
      let price = await priceOnB();
      while (price !== 1999 && performance.now() - changedAt < 1000) {
        await Bun.sleep(10);
        price = await priceOnB();
      }
      expect(price).toBe(1999);
      expect(performance.now() - changedAt).toBeLessThan(1000);
    } finally {
      await instanceB.close();
      await other.close(1);
    }
  });
});

describe("the catalog's cached answers", () => {
  test("searches without end never push the first page or a product out of the cache", async () => {
    const listeners: (() => void)[] = [];
    let reads = 0;
    const answers = createPublicCatalogAnswers({
      changes: { subscribe: (_topic: string, listener: () => void) => void listeners.push(listener) },
      listPublicProducts: async () => {
        reads++;
        return { items: [], next_cursor: null };
      },
      getPublicProduct: async (slug: string) => ({ slug }),
    } as unknown as PublicCatalogDeps);
    await answers.list({ limit: 20 });
    await answers.product("hot");
    for (let i = 0; i < 2500; i++) await answers.list({ limit: 20, q: `search ${i}` });
    expect(answers.cachedFirstPage()).toBeDefined();
    expect(answers.cachedProduct("hot")).toBeDefined();
    expect(reads).toBe(2501);
    // A catalog write still empties both.
    for (const listener of listeners) listener();
    expect(answers.cachedFirstPage()).toBeUndefined();
    expect(answers.cachedProduct("hot")).toBeUndefined();
  });
});
