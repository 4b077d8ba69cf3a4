import { newGatewayId } from "../ids.ts";
import type { StripeCoupon } from "./coupons.ts";
import { addIntervalUnix } from "./model.ts";

/**
 * A coupon applied to a subscription (`Stripe.Discount`). Since API version 2025-09-30.clover the
 * coupon sits under `source`, and since 2025-03-31.basil a subscription or invoice names its
 * discounts by id in `discounts` only (`expand[]=discounts` gives these objects).
 */
export interface StripeDiscount {
  readonly id: string;
  readonly object: "discount";
  readonly checkout_session: string | null;
  readonly customer: string;
  readonly customer_account: null;
  /** When a `repeating` coupon stops applying; null for `once` and `forever`. */
  readonly end: number | null;
  readonly invoice: null;
  readonly invoice_item: null;
  readonly promotion_code: null;
  readonly source: { readonly coupon: StripeCoupon; readonly type: "coupon" };
  readonly start: number;
  readonly subscription: string;
  readonly subscription_item: null;
}

/** What a coupon takes off a line of an invoice: Stripe does not discount prorations or credits. */
export interface DiscountableLine {
  readonly amount: number;
  readonly proration?: unknown;
}

export const discountable = (line: DiscountableLine) => line.proration === undefined && line.amount >= 0;

/**
 * The discount on `subtotal`, as one figure: `percent_off` rounded half up on basis points (12.5 %
 * of 1999 is 250), or `amount_off` up to the subtotal.
 */
export function couponAmount(coupon: StripeCoupon, subtotal: number): number {
  if (subtotal <= 0) return 0;
  if (coupon.amount_off !== null) return Math.min(coupon.amount_off, subtotal);
  // In integers (BigInt, as large amounts times basis points pass 2^53), so no float rounding creeps in.
  const basisPoints = BigInt(Math.round((coupon.percent_off ?? 0) * 100));
  return Number((BigInt(subtotal) * basisPoints + 5000n) / 10000n);
}

/**
 * `total` shared across `amounts` in proportion: each share floored, then the cents left over go one
 * by one to the largest fractional remainders (the earlier line first on a tie), so the shares add
 * up to `total` exactly.
 */
export function splitAcross(total: number, amounts: readonly number[]): number[] {
  const sum = amounts.reduce((acc, amount) => acc + amount, 0);
  if (sum <= 0 || total <= 0) return amounts.map(() => 0);
  const whole = BigInt(sum);
  const products = amounts.map((amount) => BigInt(total) * BigInt(amount));
  const shares = products.map((product) => Number(product / whole));
  const byRemainder = products
    .map((product, index) => ({ index, remainder: product % whole }))
    .sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  let left = total - shares.reduce((acc, share) => acc + share, 0);
  for (const { index } of byRemainder) {
    if (left === 0) break;
    shares[index] = (shares[index] ?? 0) + 1;
    left -= 1;
  }
  return shares;
}

/** Each line's part of `coupon`'s discount: the coupon applies to the discountable lines' sum. */
export function lineDiscounts(coupon: StripeCoupon, lines: readonly DiscountableLine[]): number[] {
  const bases = lines.map((line) => (discountable(line) ? line.amount : 0));
  return splitAcross(
    couponAmount(
      coupon,
      bases.reduce((acc, amount) => acc + amount, 0),
    ),
    bases,
  );
}

/** The discount a subscription gets from a coupon redeemed at its checkout. */
export function newDiscount(input: {
  readonly coupon: StripeCoupon;
  readonly customer: string;
  readonly subscription: string;
  readonly checkoutSession: string;
  readonly start: number;
}): StripeDiscount {
  const { coupon, start } = input;
  const months = coupon.duration === "repeating" ? coupon.duration_in_months : null;
  // Month by month, as the sandbox moves a monthly period on (Jan 31, Feb 28, Mar 28): the end of
  // N months is then exactly where the N-th monthly period ends, whatever day the month starts on.
  let end = start;
  for (let month = 0; month < (months ?? 0); month += 1) end = addIntervalUnix(end, "month", 1);
  return {
    id: newGatewayId("di"),
    object: "discount",
    checkout_session: input.checkoutSession,
    customer: input.customer,
    customer_account: null,
    end: months === null ? null : end,
    invoice: null,
    invoice_item: null,
    promotion_code: null,
    source: { coupon, type: "coupon" },
    start,
    subscription: input.subscription,
    subscription_item: null,
  };
}

/**
 * Whether the discount applies to an invoice whose billed period starts at `periodStart`: `once`
 * to the subscription's first invoice only, `repeating` while the period starts before its `end`,
 * `forever` always.
 */
export function discountApplies(discount: StripeDiscount, reason: string, periodStart: number): boolean {
  switch (discount.source.coupon.duration) {
    case "once":
      return reason === "subscription_create";
    case "repeating":
      return discount.end !== null && periodStart < discount.end;
    case "forever":
      return true;
  }
}
