import { describe, expect, test } from "bun:test";
import { createStripeGateway } from "../../../../adapters/gateways/gateway-b/stripe-client.ts";
import type { RemotePrice } from "../../../../application/payments/ports.ts";
import { UpstreamBadResponse, UpstreamServerError } from "../../../../application/shared/errors.ts";
import { createStaticGatewaySettings } from "../../../support/fakes/static-gateway-settings.ts";
import { failure, mockStripeApi, stripeError } from "./stripe-api-mock.ts";

const { answer } = mockStripeApi();
const catalog = () => createStripeGateway({ settings: createStaticGatewaySettings() });
const MARKETPLACE_ID = "0f8e2a4c-6b1d-4e3f-8a9b-7c6d5e4f3a2b";

const aProduct = (overrides: Record<string, unknown> = {}) => ({
  id: "prod_1",
  object: "product",
  name: "Aurora Theme",
  active: true,
  metadata: { marketplace_product_id: MARKETPLACE_ID },
  ...overrides,
});

const aPrice = (overrides: Record<string, unknown> = {}) => ({
  id: "price_1",
  object: "price",
  product: "prod_1",
  unit_amount: 2900,
  currency: "usd",
  recurring: { interval: "month", interval_count: 1 },
  active: true,
  tax_behavior: "exclusive",
  metadata: { variant: "monthly", marketplace_product_id: MARKETPLACE_ID },
  ...overrides,
});

const notFound = stripeError("invalid_request_error", "No such product", "resource_missing");

describe("products", () => {
  test("findProductByMarketplaceId searches the metadata", async () => {
    const requests = answer("get", "/v1/products/search", { object: "search_result", data: [aProduct()] });
    expect(await catalog().findProductByMarketplaceId(MARKETPLACE_ID)).toEqual({
      id: "prod_1",
      name: "Aurora Theme",
      marketplace_product_id: MARKETPLACE_ID,
    });
    expect(requests[0]?.query.get("query")).toBe(`metadata['marketplace_product_id']:'${MARKETPLACE_ID}'`);
  });

  test("quotes in the id are escaped, and no hit is undefined", async () => {
    const requests = answer("get", "/v1/products/search", { object: "search_result", data: [] });
    expect(await catalog().findProductByMarketplaceId("it's")).toBeUndefined();
    expect(requests[0]?.query.get("query")).toBe("metadata['marketplace_product_id']:'it\\'s'");
  });

  test("getProduct is undefined on 404 but fails on other errors", async () => {
    answer("get", "/v1/products/prod_gone", notFound, 404);
    expect(await catalog().getProduct("prod_gone")).toBeUndefined();
    answer("get", "/v1/products/prod_1", stripeError("api_error", "boom"), 500);
    expect(await failure(catalog().getProduct("prod_1"))).toBeInstanceOf(UpstreamServerError);
  });

  test("createProduct sends the name, description and marketplace id", async () => {
    const requests = answer("post", "/v1/products", aProduct());
    const input = { marketplace_product_id: MARKETPLACE_ID, name: "Aurora Theme", description: "A theme" };
    expect((await catalog().createProduct(input)).id).toBe("prod_1");
    expect(requests[0]?.form).toEqual([
      ["name", "Aurora Theme"],
      ["description", "A theme"],
      ["metadata[marketplace_product_id]", MARKETPLACE_ID],
    ]);
  });

  test("an empty description is left out, since Stripe refuses empty strings", async () => {
    const requests = answer("post", "/v1/products", aProduct());
    await catalog().createProduct({ marketplace_product_id: MARKETPLACE_ID, name: "Aurora Theme", description: "" });
    expect(requests[0]?.form.map(([key]) => key)).toEqual(["name", "metadata[marketplace_product_id]"]);
  });
});

describe("prices", () => {
  const remote: RemotePrice = {
    id: "price_1",
    product_id: "prod_1",
    amount: 2900,
    currency: "USD",
    billing_interval: "monthly",
    variant: "monthly",
    active: true,
    tax_behavior: "exclusive",
  };

  test("getPrice maps currency, interval and variant; 404 is undefined", async () => {
    answer("get", "/v1/prices/price_1", aPrice());
    answer("get", "/v1/prices/price_gone", notFound, 404);
    expect(await catalog().getPrice("price_1")).toEqual(remote);
    expect(await catalog().getPrice("price_gone")).toBeUndefined();
  });

  test("a one-time price without a known variant maps to nulls", async () => {
    answer(
      "get",
      "/v1/prices/price_2",
      aPrice({ id: "price_2", recurring: null, metadata: {}, product: { id: "prod_1" } }),
    );
    expect(await catalog().getPrice("price_2")).toMatchObject({
      billing_interval: null,
      variant: null,
      product_id: "prod_1",
    });
  });

  test.each([
    ["no unit_amount", aPrice({ unit_amount: null })],
    ["a weekly interval", aPrice({ recurring: { interval: "week" } })],
    ["no active flag", aPrice({ active: undefined })],
  ])("a price with %s is a bad response", async (_, body) => {
    answer("get", "/v1/prices/price_1", body);
    expect(await failure(catalog().getPrice("price_1"))).toBeInstanceOf(UpstreamBadResponse);
  });

  test("createPrice sends product, lower-case currency, amount, tax behaviour, interval and metadata", async () => {
    const requests = answer("post", "/v1/prices", aPrice());
    const price = await catalog().createPrice({
      product_id: "prod_1",
      marketplace_product_id: MARKETPLACE_ID,
      variant: "monthly",
      amount: 2900,
      currency: "USD",
      billing_interval: "monthly",
      trial_days: 14,
      tax_behavior: "exclusive",
    });
    expect(price).toEqual(remote);
    expect(requests[0]?.form).toEqual([
      ["product", "prod_1"],
      ["currency", "usd"],
      ["unit_amount", "2900"],
      ["tax_behavior", "exclusive"],
      ["recurring[interval]", "month"],
      ["metadata[variant]", "monthly"],
      ["metadata[marketplace_product_id]", MARKETPLACE_ID],
    ]);
  });

  test("a one-time price has no recurring part", async () => {
    const requests = answer("post", "/v1/prices", aPrice({ recurring: null, metadata: { variant: "regular" } }));
    await catalog().createPrice({
      product_id: "prod_1",
      marketplace_product_id: MARKETPLACE_ID,
      variant: "regular",
      amount: 4900,
      currency: "EUR",
      billing_interval: null,
      trial_days: null,
      tax_behavior: "inclusive",
    });
    expect(requests[0]?.form.map(([key]) => key)).not.toContain("recurring[interval]");
  });

  test("updatePrice creates a replacement with the same metadata, then deactivates the old price", async () => {
    const reads = answer("get", "/v1/prices/price_1", aPrice());
    const creations = answer("post", "/v1/prices", aPrice({ id: "price_2", unit_amount: 3900 }));
    const deactivations = answer("post", "/v1/prices/price_1", aPrice({ active: false }));
    const updated = await catalog().updatePrice(remote, { amount: 3900, currency: "USD", tax_behavior: "exclusive" });
    expect(updated).toEqual({ ...remote, id: "price_2", amount: 3900 });
    expect(reads).toHaveLength(1);
    expect(creations[0]?.form).toEqual([
      ["product", "prod_1"],
      ["currency", "usd"],
      ["unit_amount", "3900"],
      ["tax_behavior", "exclusive"],
      ["recurring[interval]", "month"],
      ["metadata[variant]", "monthly"],
      ["metadata[marketplace_product_id]", MARKETPLACE_ID],
    ]);
    expect(deactivations.map((request) => request.form)).toEqual([[["active", "false"]]]);
  });

  test("a failed replacement leaves the old price active", async () => {
    answer("get", "/v1/prices/price_1", aPrice());
    answer("post", "/v1/prices", stripeError("invalid_request_error", "bad currency"), 400);
    const deactivations = answer("post", "/v1/prices/price_1", aPrice({ active: false }));
    await failure(catalog().updatePrice(remote, { amount: 3900, currency: "USD", tax_behavior: "exclusive" }));
    expect(deactivations).toHaveLength(0);
  });
});

describe("creations asked again after a lost answer", () => {
  test("the same product or price carries the same Idempotency-Key; other terms or another replaced price, another", async () => {
    const products = answer("post", "/v1/products", aProduct());
    const input = { marketplace_product_id: MARKETPLACE_ID, name: "Aurora Theme", description: "A theme" };
    await catalog().createProduct(input);
    await catalog().createProduct(input);
    await catalog().createProduct({ ...input, name: "Aurora Theme 2" });
    const productKeys = products.map((request) => request.headers.get("idempotency-key"));
    expect(productKeys[0]).toStartWith(`product-${MARKETPLACE_ID}-`);
    expect(productKeys[1]).toBe(productKeys[0] ?? "");
    expect(productKeys[2]).not.toBe(productKeys[0] ?? "");

    const remote: RemotePrice = {
      id: "price_1",
      product_id: "prod_1",
      amount: 2900,
      currency: "USD",
      billing_interval: "monthly",
      variant: "monthly",
      active: true,
      tax_behavior: "exclusive",
    };
    for (const id of ["price_1", "price_9"]) {
      answer("get", `/v1/prices/${id}`, aPrice({ id }));
      answer("post", `/v1/prices/${id}`, aPrice({ id, active: false }));
    }
    const prices = answer("post", "/v1/prices", aPrice({ id: "price_2", unit_amount: 3900 }));
    await catalog().updatePrice(remote, { amount: 3900, currency: "USD", tax_behavior: "exclusive" });
    await catalog().updatePrice(remote, { amount: 3900, currency: "USD", tax_behavior: "exclusive" });
    await catalog().updatePrice(
      { ...remote, id: "price_9" },
      { amount: 3900, currency: "USD", tax_behavior: "exclusive" },
    );
    const priceKeys = prices.map((request) => request.headers.get("idempotency-key"));
    expect(priceKeys[0]).toStartWith("price-replacing-price_1-");
    expect(priceKeys[1]).toBe(priceKeys[0] ?? "");
    expect(priceKeys[2]).toStartWith("price-replacing-price_9-");
  });
});
