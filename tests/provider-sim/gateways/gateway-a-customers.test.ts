import { describe, expect, test } from "bun:test";
import { aTransaction } from "./flows.ts";
import { createGatewaySim } from "./harness.ts";

describe("gateway_a sandbox: customers", () => {
  test("a created customer reads back by id and lists by email, in Paddle's shape", async () => {
    const sim = createGatewaySim();
    const created = await sim.a("POST", "/customers", { body: { email: "ada@example.com", name: "Ada" } });
    expect(created.status).toBe(201);
    const customer = created.body.data;
    expect(customer).toEqual({
      id: expect.stringMatching(/^ctm_[a-z\d]{26}$/),
      name: "Ada",
      email: "ada@example.com",
      marketing_consent: false,
      status: "active",
      custom_data: null,
      locale: "en",
      created_at: expect.any(String),
      updated_at: expect.any(String),
      import_meta: null,
    });
    await sim.a("POST", "/customers", { body: { email: "bob@example.com" } });
    expect((await sim.a("GET", `/customers/${customer.id}`)).body.data).toEqual(customer);
    const listed = await sim.a("GET", "/customers?email=ADA@example.com");
    expect(listed.body.data).toEqual([customer]);
    expect(listed.body.meta.pagination).toEqual({
      per_page: 50,
      next: expect.stringContaining("/gateway_a/customers?"),
      has_more: false,
      estimated_total: 1,
    });
    expect((await sim.a("GET", "/customers?email=nobody@example.com")).body.data).toEqual([]);
    expect((await sim.a("GET", "/customers")).body.data).toHaveLength(2);
    expect((await sim.a("GET", "/customers/ctm_unknown")).status).toBe(404);
  });

  test("an email already taken is 409 customer_already_exists naming the customer, as Paddle answers", async () => {
    const sim = createGatewaySim();
    const first = (await sim.a("POST", "/customers", { body: { email: "ada@example.com" } })).body.data;
    const again = await sim.a("POST", "/customers", { body: { email: "Ada@Example.com", name: "Ada" } });
    expect(again.status).toBe(409);
    expect(again.body.error).toEqual({
      type: "request_error",
      code: "customer_already_exists",
      detail: `customer email conflicts with customer of id ${first.id}`,
      documentation_url: "https://developer.paddle.com/errors/customers/customer_already_exists",
    });
  });

  test("fields Paddle does not know are refused with 400 invalid_field listing them", async () => {
    const sim = createGatewaySim();
    const customer = await sim.a("POST", "/customers", { body: { email: "ada@example.com", phone: "1" } });
    expect(customer.status).toBe(400);
    expect(customer.body.error).toMatchObject({
      code: "invalid_field",
      errors: [{ field: "phone", message: "unknown field" }],
    });
    const transaction = await sim.a("POST", "/transactions", {
      body: {
        items: [
          {
            price: {
              description: "Line",
              product: { name: "POS", tax_category: "standard", colour: "red" },
              unit_price: { amount: "100", currency_code: "USD" },
            },
            quantity: 1,
          },
        ],
        customer: { email: "ada@example.com" },
      },
    });
    expect(transaction.status).toBe(400);
    expect(transaction.body.error.errors).toEqual([{ field: "customer", message: "unknown field" }]);
    expect((await sim.a("POST", "/customers", { body: { email: "not-an-email" } })).status).toBe(422);
  });

  test("every body the sandbox reads refuses an unknown field, naming where it is", async () => {
    const sim = createGatewaySim();
    const paid = await aTransaction(sim);
    const cases: [string, string, unknown, string][] = [
      ["POST", "/products", { name: "P", tax_category: "standard", sku: "1" }, "sku"],
      ["POST", "/prices", { product_id: "pro_x", description: "d", amount: "1" }, "amount"],
      ["PATCH", "/prices/pri_x", { unit_price: { amount: "1", currency_code: "USD" }, active: true }, "active"],
      ["POST", "/adjustments", { action: "refund", transaction_id: paid.id, reason: "r", refund: true }, "refund"],
      [
        "POST",
        "/adjustments",
        { action: "refund", transaction_id: paid.id, reason: "r", items: [{ item_id: "x", amount: "1", qty: 1 }] },
        "items[0].qty",
      ],
      ["POST", "/subscriptions/sub_x/cancel", { effective_from: "immediately", when: "now" }, "when"],
      ["PATCH", "/subscriptions/sub_x", { scheduled_change: null, status: "paused" }, "status"],
    ];
    for (const [method, path, body, field] of cases) {
      const response = await sim.a(method, path, { body });
      expect({ path, status: response.status, errors: response.body.error.errors }).toEqual({
        path,
        status: 400,
        errors: [{ field, message: "unknown field" }],
      });
    }
  });

  test("a transaction names its customer by id; an unknown id is refused; checkout keeps the customer", async () => {
    const sim = createGatewaySim();
    const customer = (await sim.a("POST", "/customers", { body: { email: "ada@example.com" } })).body.data;
    const refused = await sim.a("POST", "/transactions", {
      body: {
        items: [
          {
            price: {
              description: "x",
              product: { name: "x", tax_category: "standard" },
              unit_price: { amount: "1", currency_code: "USD" },
            },
          },
        ],
        customer_id: "ctm_unknown",
      },
    });
    expect(refused.status).toBe(422);
    const created = await sim.a("POST", "/transactions", {
      body: {
        items: [
          {
            price: {
              description: "x",
              product: { name: "x", tax_category: "standard" },
              unit_price: { amount: "1", currency_code: "USD" },
            },
          },
        ],
        customer_id: customer.id,
      },
    });
    expect(created.body.data.customer_id).toBe(customer.id);
    await sim.plain("POST", `/checkout/gateway_a/${created.body.data.id}/pay`);
    const paid = (await sim.a("GET", `/transactions/${created.body.data.id}`)).body.data;
    expect(paid).toMatchObject({
      status: "completed",
      customer_id: customer.id,
      address_id: expect.stringMatching(/^add_/),
    });
  });

  test("a checkout without a customer gets one the sandbox's buyer stands for, readable by id", async () => {
    const sim = createGatewaySim();
    const open = await aTransaction(sim);
    expect(open.customer_id).toBeNull();
    await sim.plain("POST", `/checkout/gateway_a/${open.id}/pay`);
    const paid = (await sim.a("GET", `/transactions/${open.id}`)).body.data;
    const customer = await sim.a("GET", `/customers/${paid.customer_id}`);
    expect(customer.status).toBe(200);
    expect(customer.body.data.email).toEqual(expect.stringContaining("@"));
  });
});
