import { describe, expect, test } from "bun:test";
import { createSimClock } from "../../../provider-sim/clock.ts";
import { discountShares, splitInProportion } from "../../../provider-sim/gateways/gateway-a/discount-money.ts";
import { createGatewayADiscounts } from "../../../provider-sim/gateways/gateway-a/discounts.ts";

const aDiscount = (body: Record<string, unknown>) =>
  createGatewayADiscounts(createSimClock()).create({ description: "d", ...body });
const line = (amount: number, quantity = 1, eligible = true) => ({ amount, quantity, eligible });

describe("what a gateway_a discount takes from a transaction's lines", () => {
  test("a percentage is one figure on the whole subtotal, rounded half up", () => {
    expect(discountShares(aDiscount({ type: "percentage", amount: "12.5" }), [line(1999)])).toEqual([250]);
    // 1% of 50 is 0.5: half rounds up.
    expect(discountShares(aDiscount({ type: "percentage", amount: "1" }), [line(50)])).toEqual([1]);
    // 1% of 49 is 0.49: rounds down.
    expect(discountShares(aDiscount({ type: "percentage", amount: "1" }), [line(49)])).toEqual([0]);
    // Three lines of 333 at 10 %: one figure of 99.9 -> 100, not 3 x 33.3 -> 99.
    const shares = discountShares(aDiscount({ type: "percentage", amount: "10" }), [line(333), line(333), line(333)]);
    expect(shares.reduce((sum, share) => sum + share, 0)).toBe(100);
    expect(shares).toEqual([34, 33, 33]);
  });

  test("a flat amount is capped at the subtotal and split by each line's amount", () => {
    const flat = aDiscount({ type: "flat", amount: "500", currency_code: "USD" });
    expect(discountShares(flat, [line(1000), line(3000)])).toEqual([125, 375]);
    expect(discountShares(flat, [line(200), line(100)])).toEqual([200, 100]);
  });

  test("a flat amount per seat is taken per unit, capped at each line", () => {
    const perSeat = aDiscount({ type: "flat_per_seat", amount: "300", currency_code: "USD" });
    expect(discountShares(perSeat, [line(2000, 2), line(500, 5)])).toEqual([600, 500]);
  });

  test("lines the discount does not cover take no share, and do not count towards the figure", () => {
    const percent = aDiscount({ type: "percentage", amount: "50" });
    expect(discountShares(percent, [line(1000), line(3000, 1, false)])).toEqual([500, 0]);
  });

  test("leftover cents go to the largest remainders, the earlier line first on a tie", () => {
    expect(splitInProportion(10, [1, 1, 1])).toEqual([4, 3, 3]);
    expect(splitInProportion(5, [100, 300, 200])).toEqual([1, 2, 2]);
    expect(splitInProportion(7, [0, 0])).toEqual([0, 0]);
  });
});
