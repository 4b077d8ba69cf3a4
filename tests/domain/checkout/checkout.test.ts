import { describe, expect, test } from "bun:test";
import type { PricingMapping } from "../../../domain/catalog/pricing.ts";
import { type Product, validateProduct } from "../../../domain/catalog/product.ts";
import { canonicalJson } from "../../../domain/checkout/canonical-json.ts";
import { type CheckoutItemInput, calculateCheckout } from "../../../domain/checkout/checkout.ts";
import { ValidationFailed } from "../../../domain/shared/errors.ts";
import { aLicenseProduct, aPointOfSaleProduct } from "../../support/builders/products.ts";

const now = new Date("2026-01-01T00:00:00Z");
const stored = (input: Parameters<typeof validateProduct>[0], id: string): Product => ({
  ...validateProduct(input),
  id,
  created_at: now,
  updated_at: now,
});
const pos = stored(aPointOfSaleProduct({ price_monthly: 3000, price_yearly: 30000 }), "pos");
const license = stored(aLicenseProduct({ price_regular: 4900, price_extended: 9900 }), "lic");
const draft = stored(aLicenseProduct({ status: "draft" }), "draft");
const mapping = (overrides: Partial<PricingMapping>): PricingMapping => ({
  id: crypto.randomUUID(),
  product_id: "pos",
  payment_type: "subscription",
  license_type: null,
  billing_interval: "monthly",
  price: 2500,
  is_active: true,
  ...overrides,
});
const catalog = new Map<string, { product: Product; mappings: PricingMapping[] }>([
  ["pos", { product: pos, mappings: [mapping({})] }],
  ["lic", { product: license, mappings: [] }],
  ["draft", { product: draft, mappings: [] }],
]);

const errorsOf = (items: CheckoutItemInput[]) => {
  try {
    calculateCheckout(items, catalog, "USD");
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailed);
    return ((error as ValidationFailed).errors ?? []).map((e) => [e.path, e.code]);
  }
  throw new Error("expected a ValidationFailed");
};

describe("calculateCheckout", () => {
  test("a checkout holds 1 to 20 items", () => {
    expect(errorsOf([])).toEqual([["/items", "ITEM_COUNT_OUT_OF_RANGE"]]);
    const many = Array.from({ length: 21 }, () => ({ product_id: "lic", variant: "regular" as const }));
    expect(errorsOf(many)).toEqual([["/items", "ITEM_COUNT_OUT_OF_RANGE"]]);
    expect(calculateCheckout(many.slice(1), catalog, "USD").items).toHaveLength(20);
  });

  test("prices each item with the shared rule and sums totals", () => {
    const totals = calculateCheckout(
      [
        { product_id: "lic", variant: "extended", quantity: 2 },
        { product_id: "pos", variant: "yearly" },
      ],
      catalog,
      "USD",
    );
    expect(totals.items.map((i) => [i.product_id, i.variant, i.unit_price, i.quantity, i.amount])).toEqual([
      ["lic", "extended", 9900, 2, 19800],
      ["pos", "yearly", 30000, 1, 30000],
    ]);
    expect(totals).toMatchObject({ subtotal: 49800, total: 49800, currency: "USD" });
  });

  test("an active mapping wins over the base price", () => {
    const totals = calculateCheckout([{ product_id: "pos", variant: "monthly" }], catalog, "USD");
    expect(totals.items[0]?.unit_price).toBe(2500);
  });

  test("a subscription in trial is due when the trial ends, so due today excludes it", () => {
    const totals = calculateCheckout(
      [
        { product_id: "pos", variant: "monthly" },
        { product_id: "lic", variant: "regular" },
      ],
      catalog,
      "USD",
    );
    expect(totals.items.map((i) => [i.trial_days, i.due_today])).toEqual([
      [14, 0],
      [null, 4900],
    ]);
    expect(totals).toMatchObject({ total: 7400, due_today: 4900 });
  });

  test("identical input gives identical output", () => {
    const input: CheckoutItemInput[] = [
      { product_id: "pos", variant: "monthly", options: { workspace: "Shop", seats: 3 } },
    ];
    expect(canonicalJson(calculateCheckout(input, catalog, "USD"))).toBe(
      canonicalJson(calculateCheckout(input, catalog, "USD")),
    );
  });

  test("every problem is reported with its item path", () => {
    expect(
      errorsOf([
        { product_id: "missing", variant: "regular" },
        { product_id: "draft", variant: "regular" },
        { product_id: "pos", variant: "regular" },
        { product_id: "pos", variant: "monthly", quantity: 2 },
        { product_id: "lic", variant: "regular", options: { "Bad Key": 1, long: "x".repeat(201) } },
      ]),
    ).toEqual([
      ["/items/0/product_id", "PRODUCT_NOT_AVAILABLE"],
      ["/items/1/product_id", "PRODUCT_NOT_AVAILABLE"],
      ["/items/2/variant", "VARIANT_NOT_OFFERED"],
      ["/items/3/quantity", "QUANTITY_NOT_SUPPORTED"],
      ["/items/4/options/Bad Key", "INVALID_OPTION_NAME"],
      ["/items/4/options/long", "INVALID_OPTION_VALUE"],
    ]);
  });

  test("monthly and yearly subscriptions cannot share a checkout", () => {
    const second = stored(aPointOfSaleProduct({ price_monthly: 1, price_yearly: 2 }), "pos2");
    catalog.set("pos2", { product: second, mappings: [] });
    expect(
      errorsOf([
        { product_id: "pos", variant: "monthly" },
        { product_id: "pos2", variant: "yearly" },
      ]),
    ).toEqual([["/items", "MIXED_BILLING_INTERVALS"]]);
  });
});

test("canonicalJson sorts keys at every depth", () => {
  expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe(
    '{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}',
  );
});
