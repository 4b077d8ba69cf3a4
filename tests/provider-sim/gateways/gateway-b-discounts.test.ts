import { describe, expect, test } from "bun:test";
import { createSimClock } from "../../../provider-sim/clock.ts";
import { createGatewayBCoupons } from "../../../provider-sim/gateways/gateway-b/coupons.ts";
import {
  couponAmount,
  discountApplies,
  lineDiscounts,
  newDiscount,
  splitAcross,
} from "../../../provider-sim/gateways/gateway-b/discounts.ts";

const coupons = createGatewayBCoupons(createSimClock());
const percent = (value: string) => coupons.create({ percent_off: value });
const fixed = (amount: number) => coupons.create({ amount_off: String(amount), currency: "usd" });

describe("a coupon's discount, as one figure on the subtotal", () => {
  test.each([
    ["12.5", 1999, 250],
    ["10", 5, 1],
    ["10", 4, 0],
    ["33.33", 100, 33],
    ["0.01", 5000, 1],
    ["100", 2900, 2900],
  ])("%s %% of %i is %i (half up, on basis points)", (off, subtotal, discount) => {
    expect(couponAmount(percent(off), subtotal)).toBe(discount);
  });

  test("an amount off stops at the subtotal; nothing comes off nothing", () => {
    expect(couponAmount(fixed(500), 2900)).toBe(500);
    expect(couponAmount(fixed(5000), 2900)).toBe(2900);
    expect(couponAmount(fixed(500), 0)).toBe(0);
  });

  test("large amounts stay exact", () => {
    expect(couponAmount(percent("12.5"), 99_999_999_999_999)).toBe(12_500_000_000_000);
  });
});

describe("the figure shared across lines", () => {
  test("in proportion, floored, the leftover cents to the largest remainders, earlier line first on a tie", () => {
    expect(splitAcross(250, [333, 667])).toEqual([83, 167]);
    expect(splitAcross(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(splitAcross(425, [2900, 500])).toEqual([363, 62]);
    expect(splitAcross(0, [2900, 500])).toEqual([0, 0]);
  });

  test("prorations and credits take no part; the shares add up to the figure", () => {
    const lines = [{ amount: 2900 }, { amount: -1200, proration: {} }, { amount: 800, proration: {} }, { amount: 500 }];
    const shares = lineDiscounts(percent("12.5"), lines);
    expect(shares).toEqual([363, 0, 0, 62]);
    expect(shares.reduce((sum, share) => sum + share, 0)).toBe(couponAmount(percent("12.5"), 3400));
  });
});

describe("how long a subscription's discount lasts", () => {
  const start = Date.UTC(2026, 0, 31, 10) / 1000;
  /** The 28th of the month `count` months after January: where the sandbox's periods from Jan 31 start. */
  const month = (count: number) => Date.UTC(2026, count, 28, 10) / 1000;
  const discount = (form: Record<string, string>) =>
    newDiscount({
      coupon: coupons.create({ percent_off: "10", ...form }),
      customer: "cus_1",
      subscription: "sub_1",
      checkoutSession: "cs_1",
      start,
    });

  test("once: the first invoice only", () => {
    const once = discount({ duration: "once" });
    expect(once).toMatchObject({ object: "discount", end: null, start, source: { type: "coupon" } });
    expect(discountApplies(once, "subscription_create", start)).toBe(true);
    expect(discountApplies(once, "subscription_cycle", month(1))).toBe(false);
  });

  test("repeating: periods that start before its end, which is where the N-th monthly period ends", () => {
    const twoMonths = discount({ duration: "repeating", duration_in_months: "2" });
    // Jan 31 + 1 month is Feb 28, and the period after that starts on Mar 28.
    expect(twoMonths.end).toBe(month(2));
    expect(discountApplies(twoMonths, "subscription_create", start)).toBe(true);
    expect(discountApplies(twoMonths, "subscription_cycle", month(1))).toBe(true);
    expect(discountApplies(twoMonths, "subscription_cycle", month(2))).toBe(false);
    expect(discountApplies(twoMonths, "subscription_cycle", Date.UTC(2027, 0, 31, 10) / 1000)).toBe(false);
  });

  test("forever: every invoice", () => {
    const forever = discount({ duration: "forever" });
    expect(forever.end).toBeNull();
    expect(discountApplies(forever, "subscription_cycle", Date.UTC(2036, 0, 31) / 1000)).toBe(true);
  });
});
