import { describe, expect, test } from "bun:test";
import { createGatewaySim, type GatewaySim, PUBLIC_URL } from "./harness.ts";

async function aProductWithPrice(sim: GatewaySim, recurring = true) {
  const product = (
    await sim.b("POST", "/products", { name: "POS Suite", "metadata[marketplace_product_id]": "prod-1" })
  ).body;
  const price = (
    await sim.b("POST", "/prices", {
      product: product.id,
      currency: "usd",
      unit_amount: 2900,
      ...(recurring ? { "recurring[interval]": "month" } : {}),
      "metadata[variant]": recurring ? "monthly" : "regular",
    })
  ).body;
  return { product, price };
}

describe("gateway_b sandbox: auth and errors", () => {
  test("no key and a wrong key are 401 in Stripe's error shape", async () => {
    const sim = createGatewaySim();
    const missing = await sim.b("GET", "/balance", undefined, "");
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({
      error: { type: "invalid_request_error", message: expect.stringContaining("API key") },
    });
    const wrong = await sim.b("GET", "/balance", undefined, "sk_test_wrong");
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toMatchObject({ type: "invalid_request_error", message: "Invalid API Key provided." });
    const ok = await sim.b("GET", "/balance");
    expect(ok).toMatchObject({
      status: 200,
      body: { object: "balance", available: [{ amount: 0, currency: "usd" }], livemode: false },
    });
  });

  test("unknown ids are 404 resource_missing; missing and unknown parameters are 400 naming the param", async () => {
    const sim = createGatewaySim();
    for (const path of ["/products/prod_x", "/prices/price_x", "/subscriptions/sub_x", "/checkout/sessions/cs_x"]) {
      const response = await sim.b("GET", path);
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({
        type: "invalid_request_error",
        code: "resource_missing",
        param: "id",
      });
    }
    const missing = await sim.b("POST", "/products", { "metadata[marketplace_product_id]": "p" });
    expect(missing).toMatchObject({ status: 400, body: { error: { code: "parameter_missing", param: "name" } } });
    const { price } = await aProductWithPrice(sim);
    const immutable = await sim.b("POST", `/prices/${price.id}`, { unit_amount: 100 });
    expect(immutable).toMatchObject({
      status: 400,
      body: { error: { code: "parameter_unknown", param: "unit_amount" } },
    });
    const refund = await sim.b("POST", "/refunds", { payment_intent: "pi_nope" });
    expect(refund).toMatchObject({
      status: 400,
      body: { error: { code: "resource_missing", param: "payment_intent" } },
    });
  });
});

describe("gateway_b sandbox: products and prices", () => {
  test("a product is found by its marketplace id; prices read back and deactivate", async () => {
    const sim = createGatewaySim();
    const { product, price } = await aProductWithPrice(sim);
    await sim.b("POST", "/products", { name: "Other", "metadata[marketplace_product_id]": "prod-2" });
    // Bun's toMatchObject writes its matchers into the object it checks, so it gets a copy.
    expect({ ...product }).toMatchObject({
      id: expect.stringMatching(/^prod_/),
      object: "product",
      name: "POS Suite",
      active: true,
    });
    expect((await sim.b("GET", `/products/${product.id}`)).body.id).toBe(product.id);

    const query = encodeURIComponent("metadata['marketplace_product_id']:'prod-1'");
    const search = await sim.b("GET", `/products/search?query=${query}`);
    expect(search.body).toMatchObject({ object: "search_result", has_more: false });
    expect(search.body.data.map((p: { id: string }) => p.id)).toEqual([product.id]);
    const none = await sim.b(
      "GET",
      `/products/search?query=${encodeURIComponent("metadata['marketplace_product_id']:'zzz'")}`,
    );
    expect(none.body.data).toEqual([]);
    expect((await sim.b("GET", `/products/search?query=${encodeURIComponent("price>5")}`)).status).toBe(400);

    expect({ ...price }).toMatchObject({
      id: expect.stringMatching(/^price_/),
      object: "price",
      product: product.id,
      unit_amount: 2900,
      currency: "usd",
      recurring: { interval: "month", interval_count: 1 },
      type: "recurring",
      active: true,
      metadata: { variant: "monthly" },
    });
    const deactivated = await sim.b("POST", `/prices/${price.id}`, { active: "false" });
    expect(deactivated.body).toMatchObject({ id: price.id, active: false, unit_amount: 2900 });
    expect((await sim.b("GET", `/prices/${price.id}`)).body.active).toBe(false);
  });
});

describe("gateway_b sandbox: checkout sessions", () => {
  test("catalog and price_data lines: amount_total adds them up; the url is the hosted page", async () => {
    const sim = createGatewaySim();
    const { price } = await aProductWithPrice(sim, false);
    const created = await sim.b("POST", "/checkout/sessions", {
      mode: "payment",
      client_reference_id: "ord_1",
      "metadata[order_id]": "ord_1",
      customer_email: "ada@example.com",
      success_url: "https://shop.test/success?session={CHECKOUT_SESSION_ID}",
      cancel_url: "https://shop.test/cancel",
      "line_items[0][price]": price.id,
      "line_items[0][quantity]": 2,
      "line_items[1][price_data][currency]": "usd",
      "line_items[1][price_data][unit_amount]": 4900,
      "line_items[1][price_data][product_data][name]": "Theme",
      "line_items[1][quantity]": 1,
    });
    expect(created.status).toBe(200);
    const session = created.body;
    expect({ ...session }).toMatchObject({
      id: expect.stringMatching(/^cs_/),
      object: "checkout.session",
      status: "open",
      payment_status: "unpaid",
      amount_total: 10700,
      currency: "usd",
      client_reference_id: "ord_1",
      metadata: { order_id: "ord_1" },
      mode: "payment",
      payment_intent: null,
    });
    expect(session.url).toBe(`${PUBLIC_URL}/checkout/gateway_b/${session.id}`);
    expect((await sim.b("GET", `/checkout/sessions/${session.id}`)).body).toEqual(session);
  });

  test("a subscription with a trial is due 0 today; mode and line items must agree", async () => {
    const sim = createGatewaySim();
    const { price } = await aProductWithPrice(sim);
    const trial = await sim.b("POST", "/checkout/sessions", {
      mode: "subscription",
      client_reference_id: "ord_2",
      "line_items[0][price]": price.id,
      "line_items[0][quantity]": 1,
      "subscription_data[trial_period_days]": 14,
      "subscription_data[metadata][order_id]": "ord_2",
    });
    expect(trial.body).toMatchObject({ mode: "subscription", amount_total: 0 });
    const wrongMode = await sim.b("POST", "/checkout/sessions", {
      mode: "payment",
      "line_items[0][price]": price.id,
      "line_items[0][quantity]": 1,
    });
    expect(wrongMode).toMatchObject({
      status: 400,
      body: { error: { type: "invalid_request_error", param: "line_items" } },
    });
    const noLines = await sim.b("POST", "/checkout/sessions", { mode: "payment" });
    expect(noLines).toMatchObject({ status: 400, body: { error: { code: "parameter_missing", param: "line_items" } } });
    const badQuantity = await sim.b("POST", "/checkout/sessions", {
      mode: "subscription",
      "line_items[0][price]": price.id,
      "line_items[0][quantity]": "two",
    });
    expect(badQuantity.body.error.param).toBe("line_items[0][quantity]");
  });
});
