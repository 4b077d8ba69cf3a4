import { describe, expect, test } from "bun:test";
import type { CheckoutTotals, PricedItem } from "../../../domain/checkout/checkout.ts";
import {
  applyDiscount,
  discountedPayments,
  discountOf,
  discountPerRenewal,
  expectedFirstPayment,
  expectedRenewal,
  shareOut,
} from "../../../domain/discounts/apply.ts";
import type { Discount } from "../../../domain/discounts/discount.ts";

const now = new Date("2026-11-28T12:00:00Z");

const aDiscount = (overrides: Partial<Discount> = {}): Discount => ({
  id: "6c0f1e4a-1b7e-4d43-9d59-1f6a4f1c2b10",
  code: "LAUNCH",
  type: "percent",
  amount: 1250,
  currency: null,
  duration: "once",
  duration_in_months: null,
  max_redemptions: null,
  starts_at: null,
  expires_at: null,
  product_ids: [],
  variants: [],
  first_purchase_only: false,
  disabled_at: null,
  created_at: now,
  updated_at: now,
  ...overrides,
});

const anItem = (overrides: Partial<PricedItem> = {}): PricedItem => ({
  product_id: "p-1",
  product_name: "Editor",
  variant: "regular",
  payment_type: "one_time",
  license_type: "regular",
  billing_interval: null,
  unit_price: 1999,
  quantity: 1,
  amount: 1999,
  trial_days: null,
  due_today: 1999,
  delivery_model: "self_hosted_license",
  fulfillment_driver: "license_download",
  options: {},
  ...overrides,
});

const totalsOf = (...items: PricedItem[]): CheckoutTotals => {
  const subtotal = items.reduce((sum, item) => sum + item.amount, 0);
  return { items, subtotal, total: subtotal, due_today: subtotal, currency: "EUR" };
};

const context = { now, hasPaidOrder: null, holders: 0 };

const refusalOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as { errors: { path: string; code: string }[] }).errors[0];
  }
  throw new Error("expected a refusal");
};

describe("what a discount takes off", () => {
  test("a percentage once on the whole amount, rounded half up; a fixed amount at most the whole", () => {
    expect(discountOf({ type: "percent", amount: 1250 }, 1999)).toBe(250);
    expect(discountOf({ type: "percent", amount: 1250 }, 4900)).toBe(613);
    expect(discountOf({ type: "percent", amount: 10_000 }, 4900)).toBe(4900);
    expect(discountOf({ type: "fixed", amount: 1000 }, 3100)).toBe(1000);
    expect(discountOf({ type: "fixed", amount: 9000 }, 3100)).toBe(3100);
    expect(discountOf({ type: "percent", amount: 1 }, 0)).toBe(0);
  });

  test("shares add up to the cent, the leftover to the largest remainders, earlier lines first", () => {
    expect(shareOut(425, [2900, 500])).toEqual([363, 62]);
    expect(shareOut(100, [333, 333, 333])).toEqual([34, 33, 33]);
    for (const total of [0, 1, 7, 999]) {
      const shares = shareOut(total, [17, 4, 1000, 3]);
      expect(shares.reduce((sum, share) => sum + share, 0)).toBe(total);
    }
  });

  test("payments lowered: once the first, repeating counted as Stripe counts months, forever all", () => {
    expect(discountedPayments({ duration: "once", duration_in_months: null }, "monthly")).toBe(1);
    expect(discountedPayments({ duration: "repeating", duration_in_months: 2 }, "monthly")).toBe(2);
    expect(discountedPayments({ duration: "repeating", duration_in_months: 12 }, "yearly")).toBe(1);
    expect(discountedPayments({ duration: "repeating", duration_in_months: 13 }, "yearly")).toBe(2);
    expect(discountedPayments({ duration: "repeating", duration_in_months: 6 }, null)).toBe(1);
    expect(discountedPayments({ duration: "forever", duration_in_months: null }, "yearly")).toBeNull();
  });
});

describe("a code applied to a checkout", () => {
  test("lowers the lines, the total and what is due, and says what renewals cost while it lasts", () => {
    const monthly = anItem({
      variant: "monthly",
      payment_type: "subscription",
      billing_interval: "monthly",
      amount: 3100,
    });
    const once = anItem({ amount: 1000 });
    const fixed = aDiscount({
      type: "fixed",
      amount: 1000,
      currency: "EUR",
      duration: "repeating",
      duration_in_months: 2,
    });
    const applied = applyDiscount(totalsOf(monthly, once), fixed, context);
    expect(applied).toMatchObject({ subtotal: 4100, discount_total: 1000, total: 3100, due_today: 3100 });
    expect(applied.items.map((item) => item.discount)).toEqual([756, 244]);
    expect(applied.discount).toMatchObject({ payments: 2, renewal_amount: 2100, renewal_full_amount: 3100 });
    expect(discountPerRenewal(applied)).toBe(1000);
  });

  test("a first payment may differ from the order by the gateway's rounding, a cent a line at most", () => {
    const order = { due_today: 8742, discount_total: 1249, discount_id: "d" };
    // Three lines: a gateway rounding each line's share may take off 1,248 to 1,250.
    expect(expectedFirstPayment(order, 3, 1250)).toBe(8741);
    expect(expectedFirstPayment(order, 3, 1247)).toBe(8744);
    expect(expectedFirstPayment(order, 3, 1246)).toBe(8742);
    // One line: nothing to round differently.
    expect(expectedFirstPayment(order, 1, 1250)).toBe(8742);
    expect(expectedFirstPayment({ ...order, discount_id: null }, 3, 1250)).toBe(8742);
  });

  test("renewals are expected discounted while the code lasts, then at the full price", () => {
    const order = { discount_payments: 2, discount_renewal: 1000 };
    expect([2, 3, 4].map((n) => expectedRenewal(order, 3100, n))).toEqual([2100, 3100, 3100]);
    expect(expectedRenewal({ discount_payments: null, discount_renewal: 500 }, 3100, 40)).toBe(2600);
    expect(expectedRenewal({ discount_payments: null, discount_renewal: 0 }, 3100, 2)).toBe(3100);
  });

  test("each refusal names its reason on /discount_code", () => {
    const totals = totalsOf(anItem());
    const reasons: [Discount | undefined, object, string][] = [
      [undefined, {}, "DISCOUNT_NOT_FOUND"],
      [aDiscount({ disabled_at: now }), {}, "DISCOUNT_NOT_FOUND"],
      [aDiscount({ starts_at: new Date("2026-12-01T00:00:00Z") }), {}, "DISCOUNT_NOT_STARTED"],
      [aDiscount({ expires_at: now }), {}, "DISCOUNT_EXPIRED"],
      [aDiscount({ max_redemptions: 3 }), { holders: 3 }, "DISCOUNT_USED_UP"],
      [aDiscount({ product_ids: ["p-2"] }), {}, "DISCOUNT_NOT_APPLICABLE"],
      [aDiscount({ variants: ["extended"] }), {}, "DISCOUNT_NOT_APPLICABLE"],
      [aDiscount({ type: "fixed", amount: 100, currency: "USD" }), {}, "DISCOUNT_NOT_APPLICABLE"],
      [aDiscount({ first_purchase_only: true }), { hasPaidOrder: true }, "DISCOUNT_NOT_APPLICABLE"],
    ];
    for (const [discount, more, code] of reasons) {
      expect(refusalOf(() => applyDiscount(totals, discount, { ...context, ...more }))).toEqual(
        expect.objectContaining({ path: "/discount_code", code }),
      );
    }
    const trial = totalsOf(anItem({ billing_interval: "monthly", trial_days: 14, due_today: 0 }));
    expect(refusalOf(() => applyDiscount(trial, aDiscount(), context))?.code).toBe("DISCOUNT_NOT_APPLICABLE");
  });

  test("a first-purchase code is quoted to anyone, and used by a buyer with nothing paid yet", () => {
    const discount = aDiscount({ first_purchase_only: true });
    expect(applyDiscount(totalsOf(anItem()), discount, context).discount_total).toBe(250);
    expect(applyDiscount(totalsOf(anItem()), discount, { ...context, hasPaidOrder: false }).discount_total).toBe(250);
  });
});
