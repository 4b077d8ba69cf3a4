import { describe, expect, test } from "bun:test";
import { paysExpected, refundStatus, retainedAmount } from "../../../domain/payments/payment.ts";

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

describe("refundStatus", () => {
  const payment = (amount: number, refunded_amount = 0, charged_back_amount = 0) => ({
    amount,
    refunded_amount,
    charged_back_amount,
  });

  test("nothing refunded decides nothing", () => {
    expect(refundStatus([payment(4900)])).toBeNull();
    expect(refundStatus([])).toBeNull();
  });

  test("something refunded with something kept is a partial refund", () => {
    expect(refundStatus([payment(4900, 1000)])).toBe("partially_refunded");
    expect(refundStatus([payment(4900, 4900), payment(900)])).toBe("partially_refunded");
  });

  test("nothing of what was paid kept is a refund, however it went back", () => {
    expect(refundStatus([payment(4900, 4900)])).toBe("refunded");
    expect(refundStatus([payment(4900, 900, 4000), payment(100, 100)])).toBe("refunded");
  });
});
