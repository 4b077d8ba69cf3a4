import { describe, expect, test } from "bun:test";
import { makeCalculateCheckout } from "../../../application/checkout/calculate-checkout.ts";
import type { PricingMappingInput } from "../../../domain/catalog/pricing.ts";
import { type ProductInput, validateProduct } from "../../../domain/catalog/product.ts";
import { aLicenseProduct, aPointOfSaleProduct } from "../../support/builders/products.ts";
import { createInMemoryDiscounts } from "../../support/fakes/in-memory-discounts.ts";
import { createInMemoryPricingMappingRepository } from "../../support/fakes/in-memory-pricing-mapping-repository.ts";
import { createInMemoryProductRepository } from "../../support/fakes/in-memory-product-repository.ts";

function setup() {
  const mappings = createInMemoryPricingMappingRepository();
  const products = createInMemoryProductRepository(mappings);
  const clock = () => new Date("2026-11-28T12:00:00Z");
  const discounts = createInMemoryDiscounts(clock);
  return {
    calculate: makeCalculateCheckout({ products, mappings, currency: "EUR", discounts: discounts.codes, clock }),
    discounts,
    async aProduct(input: ProductInput, prices: readonly PricingMappingInput[] = []) {
      const product = await products.insert(validateProduct(input));
      if (!product) throw new Error("slug taken");
      if (prices.length > 0) await mappings.replaceForProduct(product.id, prices);
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
const fieldCodes = (error: { errors?: { path: string; code?: string }[] }) =>
  (error.errors ?? []).map((e) => `${e.path} ${e.code}`);

describe("calculateCheckout", () => {
  test("prices each item with the one price rule and adds up the totals in the shop's currency", async () => {
    const { calculate, aProduct } = setup();
    const license = await aProduct(aLicenseProduct({ price_regular: 4900, price_extended: 14900 }), [
      { payment_type: "one_time", license_type: "extended", price: 9900, is_active: true },
    ]);
    const priced = await calculate({
      items: [
        { product_id: license.id, variant: "regular", quantity: 3 },
        { product_id: license.id, variant: "extended" },
      ],
    });
    expect(priced.items.map((i) => [i.variant, i.unit_price, i.quantity, i.amount])).toEqual([
      ["regular", 4900, 3, 14700],
      ["extended", 9900, 1, 9900],
    ]);
    expect(priced).toMatchObject({ subtotal: 24600, total: 24600, due_today: 24600, currency: "EUR" });
  });

  test("a subscription in its trial counts in the total but is not due today", async () => {
    const { calculate, aProduct } = setup();
    const saas = await aProduct(aPointOfSaleProduct({ price_monthly: 3100 }));
    const license = await aProduct(aLicenseProduct({ price_regular: 4900 }));
    const priced = await calculate({
      items: [
        { product_id: saas.id, variant: "monthly" },
        { product_id: license.id, variant: "regular" },
      ],
    });
    expect(priced.items.map((i) => [i.variant, i.trial_days, i.due_today])).toEqual([
      ["monthly", 14, 0],
      ["regular", null, 4900],
    ]);
    expect(priced).toMatchObject({ total: 8000, due_today: 4900 });
  });

  test("uses the requested gateway when every item enables it", async () => {
    const { calculate, aProduct } = setup();
    const product = await aProduct(aLicenseProduct({ default_payment_gateway: "gateway_a" }));
    const items = [{ product_id: product.id, variant: "regular" as const }];
    expect((await calculate({ items, payment_gateway: "gateway_b" })).payment_gateway).toBe("gateway_b");
    expect((await calculate({ items })).payment_gateway).toBe("gateway_a");
  });

  test("falls back to a gateway every item enables when the requested one is not enabled by all", async () => {
    const { calculate, aProduct } = setup();
    const onlyA = await aProduct(aLicenseProduct({ enabled_payment_gateways: ["gateway_a"] }));
    const both = await aProduct(aLicenseProduct({ default_payment_gateway: "gateway_b" }));
    const priced = await calculate({
      items: [
        { product_id: onlyA.id, variant: "regular" },
        { product_id: both.id, variant: "regular" },
      ],
      payment_gateway: "gateway_b",
    });
    expect(priced.payment_gateway).toBe("gateway_a");
  });

  test("an empty cart is refused, not priced at zero", async () => {
    const error = await failure(setup().calculate({ items: [] }));
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(fieldCodes(error)).toEqual(["/items ITEM_COUNT_OUT_OF_RANGE"]);
  });

  test("items that share no gateway are NO_COMMON_GATEWAY", async () => {
    const { calculate, aProduct } = setup();
    const onlyA = await aProduct(aLicenseProduct({ enabled_payment_gateways: ["gateway_a"] }));
    const onlyB = await aProduct(aLicenseProduct({ enabled_payment_gateways: ["gateway_b"] }));
    const error = await failure(
      calculate({
        items: [
          { product_id: onlyA.id, variant: "regular" },
          { product_id: onlyB.id, variant: "regular" },
        ],
      }),
    );
    expect(error.code).toBe("NO_COMMON_GATEWAY");
  });

  test("unknown and unpublished products are not on sale, and every bad item is reported at once", async () => {
    const { calculate, aProduct } = setup();
    const draft = await aProduct(aLicenseProduct({ status: "draft" }));
    const saas = await aProduct(aPointOfSaleProduct());
    const error = await failure(
      calculate({
        items: [
          { product_id: crypto.randomUUID(), variant: "regular" },
          { product_id: draft.id, variant: "regular" },
          { product_id: saas.id, variant: "regular" },
          { product_id: saas.id, variant: "monthly", quantity: 2 },
        ],
      }),
    );
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(fieldCodes(error)).toEqual([
      "/items/0/product_id PRODUCT_NOT_AVAILABLE",
      "/items/1/product_id PRODUCT_NOT_AVAILABLE",
      "/items/2/variant VARIANT_NOT_OFFERED",
      "/items/3/quantity QUANTITY_NOT_SUPPORTED",
    ]);
  });

  test("monthly and yearly subscriptions cannot share a checkout", async () => {
    const { calculate, aProduct } = setup();
    const saas = await aProduct(aPointOfSaleProduct());
    const error = await failure(
      calculate({
        items: [
          { product_id: saas.id, variant: "monthly" },
          { product_id: saas.id, variant: "yearly" },
        ],
      }),
    );
    expect(fieldCodes(error)).toEqual(["/items MIXED_BILLING_INTERVALS"]);
  });

  test("keeps each item's chosen options, trimmed, and refuses a malformed option", async () => {
    const { calculate, aProduct } = setup();
    const saas = await aProduct(aPointOfSaleProduct());
    const priced = await calculate({
      items: [{ product_id: saas.id, variant: "monthly", options: { workspace: "  acme  ", seats: 5 } }],
    });
    expect(priced.items[0]?.options).toEqual({ workspace: "acme", seats: 5 });
    const error = await failure(
      calculate({ items: [{ product_id: saas.id, variant: "monthly", options: { "Bad Name": "x" } }] }),
    );
    expect(fieldCodes(error)).toEqual(["/items/0/options/Bad Name INVALID_OPTION_NAME"]);
  });
});
