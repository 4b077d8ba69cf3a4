import { expect, test } from "bun:test";
import { nonSnakeKeys, paddleCamel, stripeScalars } from "../../../../scripts/lib/gateway-types/wire.ts";

test("Stripe's form strings read back as numbers and booleans, except metadata and fields that are always strings", () => {
  expect(
    stripeScalars({
      line_items: [{ quantity: "2", price_data: { unit_amount: "2900", unit_amount_decimal: "2900.5" } }],
      automatic_tax: { enabled: "true" },
      metadata: { order_id: "42", flag: "false" },
      client_reference_id: "1001",
      page: "10",
      mode: "payment",
    }),
  ).toEqual({
    line_items: [{ quantity: 2, price_data: { unit_amount: 2900, unit_amount_decimal: "2900.5" } }],
    automatic_tax: { enabled: true },
    metadata: { order_id: "42", flag: "false" },
    client_reference_id: "1001",
    page: "10",
    mode: "payment",
  });
});

test("Paddle's snake_case wire keys become the SDK's camelCase, top-level custom data as it was", () => {
  expect(
    paddleCamel({
      items: [{ price_id: "pri_1", quantity: 1 }],
      customer_id: "ctm_1",
      custom_data: { order_id: "ord_1" },
      billing_details: { payment_terms: { interval: "day" } },
    }),
  ).toEqual({
    items: [{ priceId: "pri_1", quantity: 1 }],
    customerId: "ctm_1",
    customData: { order_id: "ord_1" },
    billingDetails: { paymentTerms: { interval: "day" } },
  });
});

test("a Paddle wire key that is not snake_case is named with its path", () => {
  expect(nonSnakeKeys({ items: [{ priceId: "pri_1" }], custom_data: { orderId: "x" }, customer_id: "c" })).toEqual([
    "items[0].priceId",
  ]);
});
