import { describe, expect, test } from "bun:test";
import { CATALOG_TOPIC } from "../../../application/catalog/manage-products.ts";
import { makeListPricingMappings, makeSavePricingMappings } from "../../../application/catalog/pricing-mappings.ts";
import type { PricingMappingInput } from "../../../domain/catalog/pricing.ts";
import { type ProductInput, validateProduct } from "../../../domain/catalog/product.ts";
import { aLicenseProduct, aPointOfSaleProduct, subscriptionMappings } from "../../support/builders/products.ts";
import { createInMemoryAuditLogWriter } from "../../support/fakes/in-memory-audit-log-writer.ts";
import { createInMemoryChangeSignal } from "../../support/fakes/in-memory-change-signal.ts";
import { createInMemoryPricingMappingRepository } from "../../support/fakes/in-memory-pricing-mapping-repository.ts";
import { createInMemoryProductRepository } from "../../support/fakes/in-memory-product-repository.ts";

const ADMIN = "0b9a3c1e-5d4f-4a6b-8c7d-9e0f1a2b3c4d";

/** The use cases as the signed-in admin `ADMIN` calls them. */
function setup() {
  const audit = createInMemoryAuditLogWriter();
  const mappings = createInMemoryPricingMappingRepository(audit);
  const products = createInMemoryProductRepository(mappings);
  const changes = createInMemoryChangeSignal();
  const deps = { products, mappings, changes };
  const savePricingMappings = makeSavePricingMappings(deps);
  return {
    mappings,
    changes,
    audit,
    list: makeListPricingMappings(deps),
    save: (productId: string, input: readonly PricingMappingInput[]) => savePricingMappings(productId, input, ADMIN),
    async aProduct(input: ProductInput) {
      const product = await products.insert(validateProduct(input));
      if (!product) throw new Error("slug taken");
      return product;
    },
  };
}

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; errors?: { path: string; code?: string }[] };
  }
  throw new Error("expected the call to fail");
}

const oneTime = (license: string, price: number, is_active = true): PricingMappingInput => ({
  payment_type: "one_time",
  license_type: license,
  price,
  is_active,
});

const terms = (list: readonly { payment_type: string; license_type: string | null; price: number }[]) =>
  list.map((m) => [m.payment_type, m.license_type, m.price]);

describe("savePricingMappings", () => {
  test("stores the product's mappings in order, normalized, and signals the catalog change", async () => {
    const { aProduct, save, mappings, changes } = setup();
    const product = await aProduct(aLicenseProduct());
    const saved = await save(product.id, [oneTime("regular", 3900), oneTime("extended", 9900)]);
    expect(saved.map((m) => [m.product_id, m.license_type, m.billing_interval, m.price])).toEqual([
      [product.id, "regular", null, 3900],
      [product.id, "extended", null, 9900],
    ]);
    expect(await mappings.listByProduct(product.id)).toEqual(saved);
    expect(changes.published).toEqual([CATALOG_TOPIC]);
  });

  test("replaces the whole set: mappings left out of the new set are gone", async () => {
    const { aProduct, save, mappings } = setup();
    const product = await aProduct(aLicenseProduct());
    await save(product.id, [oneTime("regular", 3900), oneTime("extended", 9900)]);
    await save(product.id, [oneTime("extended", 12900)]);
    expect(terms(await mappings.listByProduct(product.id))).toEqual([["one_time", "extended", 12900]]);
  });

  test("an empty set removes every mapping", async () => {
    const { aProduct, save, mappings } = setup();
    const product = await aProduct(aLicenseProduct());
    await save(product.id, [oneTime("regular", 3900)]);
    expect(await save(product.id, [])).toEqual([]);
    expect(await mappings.listByProduct(product.id)).toEqual([]);
  });

  test("one bad row saves nothing: the previous set stays and nothing is signalled", async () => {
    const { aProduct, save, mappings, changes } = setup();
    const product = await aProduct(aLicenseProduct());
    await save(product.id, [oneTime("regular", 3900)]);
    const error = await failure(
      save(product.id, [
        oneTime("extended", 9900),
        { payment_type: "subscription", billing_interval: "monthly", price: 900, is_active: true },
      ]),
    );
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(error.errors?.map((e) => `${e.path} ${e.code}`)).toEqual(["/mappings/1/payment_type PAYMENT_TYPE_MISMATCH"]);
    expect(terms(await mappings.listByProduct(product.id))).toEqual([["one_time", "regular", 3900]]);
    expect(mappings.replacements).toBe(1);
    expect(changes.published).toEqual([CATALOG_TOPIC]);
  });

  test("checks the rows against the product's own billing: a multitenant product sells subscriptions only", async () => {
    const { aProduct, save } = setup();
    const saas = await aProduct(aPointOfSaleProduct());
    expect(await save(saas.id, subscriptionMappings(2900, 29000))).toHaveLength(2);
    const error = await failure(save(saas.id, [oneTime("regular", 3900)]));
    expect(error.errors?.map((e) => `${e.path} ${e.code}`)).toEqual(["/mappings/0/payment_type PAYMENT_TYPE_MISMATCH"]);
  });

  test("two active mappings of one variant are refused", async () => {
    const { aProduct, save } = setup();
    const product = await aProduct(aLicenseProduct());
    const error = await failure(save(product.id, [oneTime("regular", 3900), oneTime("regular", 4900)]));
    expect(error.errors?.map((e) => `${e.path} ${e.code}`)).toEqual(["/mappings/1/is_active DUPLICATE_ACTIVE_VARIANT"]);
  });

  test("an unknown product is PRODUCT_NOT_FOUND and nothing is stored", async () => {
    const { save, mappings, changes } = setup();
    const id = crypto.randomUUID();
    expect((await failure(save(id, [oneTime("regular", 3900)]))).code).toBe("PRODUCT_NOT_FOUND");
    expect(mappings.byProduct.has(id)).toBe(false);
    expect(changes.published).toEqual([]);
  });
});

describe("listPricingMappings", () => {
  test("returns the product's saved mappings, and no other product's", async () => {
    const { aProduct, save, list } = setup();
    const mine = await aProduct(aLicenseProduct());
    const other = await aProduct(aLicenseProduct());
    await save(mine.id, [oneTime("regular", 3900)]);
    await save(other.id, [oneTime("regular", 100)]);
    expect(terms(await list(mine.id))).toEqual([["one_time", "regular", 3900]]);
  });

  test("a product without mappings has an empty list", async () => {
    const { aProduct, list } = setup();
    expect(await list((await aProduct(aLicenseProduct())).id)).toEqual([]);
  });

  test("an unknown product is PRODUCT_NOT_FOUND rather than an empty list", async () => {
    expect((await failure(setup().list(crypto.randomUUID()))).code).toBe("PRODUCT_NOT_FOUND");
  });
});

describe("the audit log", () => {
  test("a saved set is one pricing_mapping.write entry by the admin, on the product, holding the new set", async () => {
    const { aProduct, save, audit } = setup();
    const product = await aProduct(aLicenseProduct());
    await save(product.id, [oneTime("regular", 3900), oneTime("extended", 9900, false)]);
    expect(audit.all()).toEqual([
      {
        actor_id: ADMIN,
        action: "pricing_mapping.write",
        target_type: "product",
        target_id: product.id,
        summary: {
          mappings: [
            { ...oneTime("regular", 3900), billing_interval: null },
            { ...oneTime("extended", 9900, false), billing_interval: null },
          ],
        },
      },
    ]);
  });

  test("a set refused for one bad row, or for an unknown product, leaves no entry", async () => {
    const { aProduct, save, audit } = setup();
    const product = await aProduct(aLicenseProduct());
    await failure(save(product.id, [oneTime("regular", 3900), oneTime("regular", 4900)]));
    await failure(save(crypto.randomUUID(), [oneTime("regular", 3900)]));
    expect(audit.all()).toEqual([]);
  });
});
