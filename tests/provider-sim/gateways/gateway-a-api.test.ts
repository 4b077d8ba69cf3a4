import { describe, expect, test } from "bun:test";
import { createGatewaySim, type GatewaySim, PUBLIC_URL } from "./harness.ts";

const aProduct = (overrides: Record<string, unknown> = {}) => ({
  name: "POS Suite",
  tax_category: "standard",
  description: "Point of sale",
  custom_data: { marketplace_product_id: "prod-1" },
  ...overrides,
});

const aPrice = (productId: string, overrides: Record<string, unknown> = {}) => ({
  product_id: productId,
  description: "Monthly",
  unit_price: { amount: "2900", currency_code: "USD" },
  billing_cycle: { interval: "month", frequency: 1 },
  trial_period: null,
  custom_data: { marketplace_product_id: "prod-1", variant: "monthly" },
  ...overrides,
});

async function createProduct(sim: GatewaySim, overrides: Record<string, unknown> = {}) {
  return (await sim.a("POST", "/products", { body: aProduct(overrides) })).body.data;
}

describe("gateway_a sandbox: auth and errors", () => {
  test("no key is 401 authentication_missing, a wrong key 401 forbidden, in Paddle's error shape", async () => {
    const sim = createGatewaySim();
    const missing = await sim.a("GET", "/event-types", { token: "" });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({
      error: {
        type: "request_error",
        code: "authentication_missing",
        detail: expect.any(String),
        documentation_url: expect.stringContaining("authentication_missing"),
      },
      meta: { request_id: expect.any(String) },
    });
    const wrong = await sim.a("POST", "/products", { token: "pdl_wrong", body: aProduct() });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe("forbidden");
    expect((await sim.a("GET", "/event-types")).status).toBe(200);
  });

  test("unknown ids are 404 not_found; bad bodies 422 invalid_field naming the field; non-JSON 400", async () => {
    const sim = createGatewaySim();
    for (const path of [
      "/products/pro_nope",
      "/prices/pri_nope",
      "/transactions/txn_nope",
      "/subscriptions/sub_nope",
    ]) {
      const response = await sim.a("GET", path);
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({ type: "request_error", code: "not_found" });
    }
    const bad = await sim.a("POST", "/products", { body: aProduct({ name: "" }) });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatchObject({ code: "invalid_field", detail: expect.stringContaining("name") });
    const product = await createProduct(sim);
    const badPrice = await sim.a("POST", "/prices", {
      body: aPrice(product.id, { unit_price: { amount: 29, currency_code: "USD" } }),
    });
    expect(badPrice.status).toBe(422);
    expect(badPrice.body.error.detail).toContain("unit_price.amount");
    const malformed = await sim.a("POST", "/products", {
      rawBody: "{name",
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe("bad_request");
  });
});

describe("gateway_a sandbox: products and prices", () => {
  test("a created product and price read back; prices list by product; PATCH changes the unit price", async () => {
    const sim = createGatewaySim();
    const created = await sim.a("POST", "/products", { body: aProduct() });
    expect(created.status).toBe(201);
    // Bun's toMatchObject writes its matchers into the object it checks, so it gets a copy.
    const product = created.body.data;
    expect((await sim.a("GET", `/products/${product.id}`)).body.data).toEqual(product);
    expect({ ...product }).toMatchObject({
      id: expect.stringMatching(/^pro_[0-9a-z]{26}$/),
      name: "POS Suite",
      tax_category: "standard",
      status: "active",
      custom_data: { marketplace_product_id: "prod-1" },
      created_at: expect.any(String),
    });

    const price = (await sim.a("POST", "/prices", { body: aPrice(product.id) })).body.data;
    expect({ ...price }).toMatchObject({
      id: expect.stringMatching(/^pri_/),
      product_id: product.id,
      unit_price: { amount: "2900", currency_code: "USD" },
      billing_cycle: { interval: "month", frequency: 1 },
      trial_period: null,
      status: "active",
      custom_data: { variant: "monthly" },
    });
    const other = await createProduct(sim, { name: "Other" });
    await sim.a("POST", "/prices", { body: aPrice(other.id) });
    const listed = await sim.a("GET", `/prices?product_id=${product.id}&per_page=200`);
    expect(listed.body.data.map((p: { id: string }) => p.id)).toEqual([price.id]);

    const patched = await sim.a("PATCH", `/prices/${price.id}`, {
      body: { unit_price: { amount: "3900", currency_code: "USD" } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.unit_price).toEqual({ amount: "3900", currency_code: "USD" });
    expect((await sim.a("GET", `/prices/${price.id}`)).body.data.unit_price.amount).toBe("3900");
    expect((await sim.a("POST", "/prices", { body: aPrice("pro_unknown") })).status).toBe(404);
  });

  test("products page with per_page and after; next is the full URL of the next page, on the last page too", async () => {
    const sim = createGatewaySim();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push((await createProduct(sim, { name: `P${i}` })).id);
    const first = await sim.a("GET", "/products?per_page=2&status=active");
    expect(first.body.data.map((p: { id: string }) => p.id)).toEqual(ids.slice(0, 2));
    expect(first.body.meta.pagination).toEqual({
      per_page: 2,
      next: expect.stringContaining(`/gateway_a/products?`),
      has_more: true,
      estimated_total: 5,
    });
    const next = new URL(first.body.meta.pagination.next);
    expect(next.searchParams.get("after")).toBe(ids[1] as string);
    expect(next.searchParams.get("status")).toBe("active");

    const seen: string[] = [];
    let path: string | null = "/products?per_page=2";
    while (path) {
      const page: any = await sim.a("GET", path);
      seen.push(...page.body.data.map((p: { id: string }) => p.id));
      const { next: url, has_more } = page.body.meta.pagination as { next: string; has_more: boolean };
      path = has_more ? `${new URL(url).pathname.replace("/gateway_a", "")}${new URL(url).search}` : null;
      // As at Paddle, the last page still names the page after it, which is empty.
      if (!has_more) expect((await sim.a("GET", url.slice(url.indexOf("/gateway_a") + 10))).body.data).toEqual([]);
    }
    expect(seen).toEqual(ids);
    expect((await sim.a("GET", "/products?per_page=500")).status).toBe(422);
  });
});

describe("gateway_a sandbox: transactions", () => {
  test("catalog and inline items: totals are strings of minor units; trial items are due later; checkout url is hosted", async () => {
    const sim = createGatewaySim();
    const product = await createProduct(sim);
    const monthly = (await sim.a("POST", "/prices", { body: aPrice(product.id) })).body.data;
    const customer = (await sim.a("POST", "/customers", { body: { email: "ada@example.com" } })).body.data;
    const created = await sim.a("POST", "/transactions", {
      body: {
        items: [
          { price_id: monthly.id, quantity: 2 },
          {
            price: {
              description: "Extended license",
              name: "Extended",
              product: { name: "Theme", tax_category: "standard" },
              unit_price: { amount: "4900", currency_code: "USD" },
              billing_cycle: null,
              trial_period: null,
            },
            quantity: 1,
          },
          {
            price: {
              description: "Trial seat",
              product_id: product.id,
              unit_price: { amount: "1000", currency_code: "USD" },
              billing_cycle: { interval: "month", frequency: 1 },
              trial_period: { interval: "day", frequency: 14 },
            },
            quantity: 1,
          },
        ],
        custom_data: { order_id: "ord_1" },
        customer_id: customer.id,
        checkout: { url: null },
      },
    });
    expect(created.status).toBe(201);
    const transaction = created.body.data;
    expect((await sim.a("GET", `/transactions/${transaction.id}`)).body.data).toEqual(transaction);
    expect({ ...transaction }).toMatchObject({
      id: expect.stringMatching(/^txn_/),
      status: "ready",
      origin: "api",
      custom_data: { order_id: "ord_1" },
      customer_id: customer.id,
      address_id: null,
      currency_code: "USD",
      subscription_id: null,
      billing_period: null,
      checkout: { url: `${PUBLIC_URL}/checkout/gateway_a/${transaction.id}` },
    });
    expect(transaction.details.totals).toMatchObject({
      subtotal: "10700",
      tax: "0",
      total: "10700",
      grand_total: "10700",
    });
    expect(
      transaction.details.line_items.map((line: any) => [line.price_id.slice(0, 4), line.quantity, line.totals.total]),
    ).toEqual([
      ["pri_", 2, "5800"],
      ["pri_", 1, "4900"],
      ["pri_", 1, "0"],
    ]);
    expect(transaction.details.line_items[1].product.name).toBe("Theme");
  });

  test("mixed currencies, unknown prices and empty items are refused", async () => {
    const sim = createGatewaySim();
    const product = await createProduct(sim);
    const usd = (await sim.a("POST", "/prices", { body: aPrice(product.id) })).body.data;
    const eur = (
      await sim.a("POST", "/prices", {
        body: aPrice(product.id, { unit_price: { amount: "100", currency_code: "EUR" } }),
      })
    ).body.data;
    const mixed = await sim.a("POST", "/transactions", {
      body: {
        items: [
          { price_id: usd.id, quantity: 1 },
          { price_id: eur.id, quantity: 1 },
        ],
      },
    });
    expect(mixed.status).toBe(422);
    expect(
      (await sim.a("POST", "/transactions", { body: { items: [{ price_id: "pri_x", quantity: 1 }] } })).status,
    ).toBe(404);
    expect((await sim.a("POST", "/transactions", { body: { items: [] } })).status).toBe(422);
  });
});
