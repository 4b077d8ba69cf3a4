import { describe, expect, test } from "bun:test";
import { paysExpected, retainedAmount } from "../../../domain/payments/payment.ts";

describe("paysExpected", () => {
  const charged = { amount: 4740, tax: 840, pre_tax: 3900, currency: "EUR" };

  test("tax-exclusive prices are compared before tax", () => {
    expect(paysExpected(charged, { amount: 3900, currency: "EUR", tax_behavior: "exclusive" })).toBe(true);
    expect(paysExpected(charged, { amount: 4740, currency: "EUR", tax_behavior: "exclusive" })).toBe(false);
  });

  test("tax-inclusive prices are compared with the total", () => {
    expect(paysExpected(charged, { amount: 4740, currency: "EUR", tax_behavior: "inclusive" })).toBe(true);
    expect(paysExpected(charged, { amount: 3900, currency: "EUR", tax_behavior: "inclusive" })).toBe(false);
  });

  test("another currency never pays", () => {
    expect(paysExpected(charged, { amount: 3900, currency: "USD", tax_behavior: "exclusive" })).toBe(false);
  });
});

test("what the shop retains is the amount less refunds and lost disputes", () => {
  expect(retainedAmount({ amount: 5000, refunded_amount: 1000, charged_back_amount: 500 })).toBe(3500);
});
