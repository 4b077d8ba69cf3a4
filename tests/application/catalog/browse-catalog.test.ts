import { describe, expect, test } from "bun:test";
import { makeGetPublicProduct, makeListPublicProducts } from "../../../application/catalog/browse-catalog.ts";
import type { PricingMappingInput } from "../../../domain/catalog/pricing.ts";
import { type ProductInput, validateProduct } from "../../../domain/catalog/product.ts";
import { aLicenseProduct, aPointOfSaleProduct } from "../../support/builders/products.ts";
import { createInMemoryPricingMappingRepository } from "../../support/fakes/in-memory-pricing-mapping-repository.ts";
import { createInMemoryProductRepository } from "../../support/fakes/in-memory-product-repository.ts";

function setup() {
  const mappings = createInMemoryPricingMappingRepository();
  const products = createInMemoryProductRepository(mappings);
  const deps = { products, mappings, currency: "EUR" };
  return {
    list: makeListPublicProducts(deps),
    get: makeGetPublicProduct(deps),
    async seed(input: ProductInput, prices: readonly PricingMappingInput[] = []) {
      const product = await products.insert(validateProduct(input));
      if (!product) throw new Error(`slug ${input.slug} taken`);
      if (prices.length > 0) await mappings.replaceForProduct(product.id, prices);
      return product;
    },
  };
}

const names = (page: { items: readonly { name: string }[] }) => page.items.map((item) => item.name);

describe("listPublicProducts", () => {
  test("lists only published products: drafts and archived ones are left out", async () => {
    const { list, seed } = setup();
    await seed(aLicenseProduct({ name: "Alpha", status: "published" }));
    await seed(aLicenseProduct({ name: "Beta", status: "draft" }));
    await seed(aLicenseProduct({ name: "Gamma", status: "archived" }));
    expect(names(await list({ limit: 10 }))).toEqual(["Alpha"]);
  });

  test("a status slipped into the query cannot widen the list to drafts", async () => {
    const { list, seed } = setup();
    await seed(aLicenseProduct({ name: "Draft", status: "draft" }));
    const query = { limit: 10, status: "draft" } as Parameters<typeof list>[0];
    expect(names(await list(query))).toEqual([]);
  });

  test("filters by delivery model, tag and free text in the name or description", async () => {
    const { list, seed } = setup();
    await seed(aLicenseProduct({ name: "Ledger", tags: ["accounting"], description: "Books for small shops" }));
    await seed(aPointOfSaleProduct({ name: "Till", tags: ["pos"], description: "Counter software" }));
    expect(names(await list({ limit: 10, delivery_model: "saas_multitenant" }))).toEqual(["Till"]);
    expect(names(await list({ limit: 10, tag: "accounting" }))).toEqual(["Ledger"]);
    expect(names(await list({ limit: 10, q: "counter" }))).toEqual(["Till"]);
    expect(names(await list({ limit: 10, q: "ledg" }))).toEqual(["Ledger"]);
  });

  test("pages through every published product with the cursor, each exactly once", async () => {
    const { list, seed } = setup();
    for (const name of ["Echo", "Alpha", "Delta", "Charlie", "Bravo"]) await seed(aLicenseProduct({ name }));
    const first = await list({ limit: 2 });
    expect(names(first)).toEqual(["Alpha", "Bravo"]);
    const second = await list({ limit: 2, cursor: first.next_cursor ?? "" });
    expect(names(second)).toEqual(["Charlie", "Delta"]);
    const last = await list({ limit: 2, cursor: second.next_cursor ?? "" });
    expect(names(last)).toEqual(["Echo"]);
    expect(last.next_cursor).toBeNull();
  });

  test("shows the public face only: no fulfillment configuration, provider or gateway internals", async () => {
    const { list, seed } = setup();
    const product = await seed(aPointOfSaleProduct({ name: "Till" }));
    const [item] = (await list({ limit: 10 })).items;
    expect(Object.keys(item ?? {}).sort()).toEqual(
      [
        "checkout_options",
        "default_release_version",
        "delivery_model",
        "description",
        "id",
        "is_recurring",
        "name",
        "seo_description",
        "seo_title",
        "slug",
        "supports_trial",
        "tags",
        "trial_days",
      ].sort(),
    );
    expect(item).toMatchObject({ id: product.id, slug: product.slug, is_recurring: true, trial_days: 14 });
  });

  test("offers each variant at its resolved price: an active mapping wins over the base price", async () => {
    const { list, seed } = setup();
    await seed(aLicenseProduct({ price_regular: 4900, price_extended: 14900 }), [
      { payment_type: "one_time", license_type: "regular", price: 3900, is_active: true },
      { payment_type: "one_time", license_type: "extended", price: 9900, is_active: false },
    ]);
    const [item] = (await list({ limit: 10 })).items;
    expect(item?.checkout_options.variants.map((v) => [v.variant, v.price, v.currency])).toEqual([
      ["regular", 3900, "EUR"],
      ["extended", 14900, "EUR"],
    ]);
  });
});

describe("getPublicProduct", () => {
  test("finds a published product by slug with its checkout options", async () => {
    const { get, seed } = setup();
    const product = await seed(aPointOfSaleProduct({ slug: "till" }), [
      { payment_type: "subscription", billing_interval: "monthly", price: 2500, is_active: true },
    ]);
    const found = await get("till");
    expect(found.id).toBe(product.id);
    expect(found.checkout_options).toEqual({
      variants: [
        { variant: "monthly", payment_type: "subscription", billing_interval: "monthly", price: 2500, currency: "EUR" },
        { variant: "yearly", payment_type: "subscription", billing_interval: "yearly", price: 31000, currency: "EUR" },
      ],
      payment_gateways: ["gateway_a", "gateway_b"],
      default_payment_gateway: "gateway_b",
      trial_days: 14,
    });
  });

  test.each(["draft", "archived"] as const)("%s products are not found, as if they did not exist", async (status) => {
    const { get, seed } = setup();
    await seed(aLicenseProduct({ slug: "hidden", status }));
    await expect(get("hidden")).rejects.toMatchObject({ code: "PRODUCT_NOT_FOUND" });
  });

  test("an unknown slug is PRODUCT_NOT_FOUND", async () => {
    await expect(setup().get("no-such-product")).rejects.toMatchObject({ code: "PRODUCT_NOT_FOUND" });
  });
});
