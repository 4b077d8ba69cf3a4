import type { CheckoutTotals, PricedItem } from "../checkout/checkout.ts";
import type { OrderStatus } from "../orders/order-status.ts";
import { ValidationFailed } from "../shared/errors.ts";
import { type Discount, WHOLE_PRICE_BASIS_POINTS } from "./discount.ts";

/** Where a refused code is reported in a checkout request. */
export const DISCOUNT_CODE_PATH = "/discount_code";

/**
 * How much a discount takes off an amount, as both gateways compute it: a percentage once on the
 * whole amount, rounded half up; a fixed amount at most the whole amount.
 */
export function discountOf(discount: Pick<Discount, "type" | "amount">, amount: number): number {
  if (amount <= 0) return 0;
  if (discount.type === "fixed") return Math.min(discount.amount, amount);
  return Math.floor((amount * discount.amount + WHOLE_PRICE_BASIS_POINTS / 2) / WHOLE_PRICE_BASIS_POINTS);
}

/**
 * Splits a discount over lines in proportion to their amounts, to the cent: each line's share is
 * rounded down, and the cents left over go one by one to the largest remainders (the earlier line
 * on a tie). The shares add up to `total`.
 */
export function shareOut(total: number, amounts: readonly number[]): number[] {
  const whole = amounts.reduce((sum, amount) => sum + amount, 0);
  if (whole === 0) return amounts.map(() => 0);
  const exact = amounts.map((amount) => (total * amount) / whole);
  const shares = exact.map(Math.floor);
  let left = total - shares.reduce((sum, share) => sum + share, 0);
  const byRemainder = exact.map((value, index) => ({ index, rest: value - Math.floor(value) }));
  byRemainder.sort((a, b) => b.rest - a.rest || a.index - b.index);
  for (const { index } of byRemainder) {
    if (left === 0) break;
    shares[index] = (shares[index] ?? 0) + 1;
    left -= 1;
  }
  return shares;
}

/**
 * How many payments a discount lowers, counting the first: `once` the first, `forever` all (null),
 * `repeating` those whose period starts within its months, as Stripe counts them (a yearly
 * subscription discounted for 13 months pays two discounted years). A one-time order has one payment.
 */
export function discountedPayments(
  discount: Pick<Discount, "duration" | "duration_in_months">,
  interval: "monthly" | "yearly" | null,
): number | null {
  if (interval === null || discount.duration === "once") return 1;
  if (discount.duration === "forever") return null;
  const months = discount.duration_in_months ?? 1;
  return interval === "monthly" ? months : Math.ceil(months / 12);
}

/** The discount of a priced checkout: on every line, in total, and on the renewals while it lasts. */
export interface AppliedDiscount {
  readonly discount_id: string;
  readonly code: string;
  readonly type: Discount["type"];
  readonly amount: number;
  readonly duration: Discount["duration"];
  readonly duration_in_months: number | null;
  /** Taken off the first payment. */
  readonly total: number;
  /** Payments it lowers, the first included; null: every one. */
  readonly payments: number | null;
  /** What each renewal costs while the discount lasts; null when nothing renews. */
  readonly renewal_amount: number | null;
  /** What each renewal costs once it has ended; null when nothing renews. */
  readonly renewal_full_amount: number | null;
}

export interface DiscountedItem extends PricedItem {
  /** This line's share of the discount on the first payment. */
  readonly discount: number;
}

export interface DiscountedTotals extends Omit<CheckoutTotals, "items"> {
  readonly items: readonly DiscountedItem[];
  /** Everything taken off the first payment. */
  readonly discount_total: number;
  readonly discount: AppliedDiscount | null;
}

/** What the customer's history says of a code's conditions. */
export interface RedemptionContext {
  readonly now: Date;
  /** Whether the buyer has a paid order already; null when the buyer is not known yet (a quote). */
  readonly hasPaidOrder: boolean | null;
  /** Paid orders that redeemed it plus open checkouts holding it. */
  readonly holders: number;
}

const refusal = (code: string, message: string): ValidationFailed =>
  new ValidationFailed([{ path: DISCOUNT_CODE_PATH, code, message }], "The discount code cannot be used.");

/** A code found unusable as the order is stored (another checkout took its last redemption meanwhile). */
export const discountRefused = (code: "DISCOUNT_EXPIRED" | "DISCOUNT_USED_UP"): ValidationFailed =>
  code === "DISCOUNT_EXPIRED"
    ? refusal(code, "has expired")
    : refusal(code, "has been used as many times as it may be");

/** Orders that no longer hold a redemption of their code: nothing was or will be paid through them. */
export const STATUSES_RELEASING_DISCOUNT: readonly OrderStatus[] = ["checkout_failed", "expired", "cancelled"];

/** Why a code cannot lower this checkout, or null when it can. */
function refusalOf(discount: Discount | undefined, totals: CheckoutTotals, context: RedemptionContext) {
  if (!discount || discount.disabled_at !== null) return refusal("DISCOUNT_NOT_FOUND", "is not a discount code");
  if (discount.starts_at && discount.starts_at > context.now) {
    return refusal("DISCOUNT_NOT_STARTED", "cannot be used yet");
  }
  if (discount.expires_at && discount.expires_at <= context.now) return discountRefused("DISCOUNT_EXPIRED");
  if (discount.max_redemptions !== null && context.holders >= discount.max_redemptions) {
    return discountRefused("DISCOUNT_USED_UP");
  }
  if (discount.currency !== null && discount.currency !== totals.currency) {
    return refusal("DISCOUNT_NOT_APPLICABLE", `is for payments in ${discount.currency}`);
  }
  const outside = totals.items.findIndex(
    (item) =>
      (discount.product_ids.length > 0 && !discount.product_ids.includes(item.product_id)) ||
      (discount.variants.length > 0 && !discount.variants.includes(item.variant)),
  );
  if (outside !== -1) {
    const item = totals.items[outside];
    return refusal(
      "DISCOUNT_NOT_APPLICABLE",
      `does not apply to ${item?.product_name} (${item?.variant}); buy it in a checkout of its own`,
    );
  }
  if (totals.items.some((item) => item.trial_days)) {
    return refusal("DISCOUNT_NOT_APPLICABLE", "does not combine with a free trial");
  }
  if (discount.first_purchase_only && context.hasPaidOrder === true) {
    return refusal("DISCOUNT_NOT_APPLICABLE", "is for a first purchase only");
  }
  return null;
}

/** A checkout's totals with no discount. */
export const undiscounted = (totals: CheckoutTotals): DiscountedTotals => ({
  ...totals,
  items: totals.items.map((item) => ({ ...item, discount: 0 })),
  discount_total: 0,
  discount: null,
});

/**
 * Applies a code to a priced checkout. A code reaches the whole checkout or is refused: both
 * gateways take a discount off the whole payment, so a code limited to some products is refused on
 * a checkout that holds others (with a field error naming the first). Refusals are `422` on
 * `/discount_code`, each with a code of its own.
 */
export function applyDiscount(
  totals: CheckoutTotals,
  discount: Discount | undefined,
  context: RedemptionContext,
): DiscountedTotals {
  const refused = refusalOf(discount, totals, context);
  if (refused || !discount) throw refused ?? refusal("DISCOUNT_NOT_FOUND", "is not a discount code");
  const total = discountOf(discount, totals.subtotal);
  const shares = shareOut(
    total,
    totals.items.map((item) => item.amount),
  );
  const recurring = totals.items.filter((item) => item.billing_interval !== null);
  const renewalFull = recurring.reduce((sum, item) => sum + item.amount, 0);
  const interval = recurring[0]?.billing_interval ?? null;
  const payments = discountedPayments(discount, interval);
  const renews = recurring.length > 0;
  return {
    ...totals,
    items: totals.items.map((item, index) => ({ ...item, discount: shares[index] ?? 0 })),
    total: totals.subtotal - total,
    due_today: totals.due_today - total,
    discount_total: total,
    discount: {
      discount_id: discount.id,
      code: discount.code,
      type: discount.type,
      amount: discount.amount,
      duration: discount.duration,
      duration_in_months: discount.duration_in_months,
      total,
      payments,
      renewal_amount: renews && payments !== 1 ? renewalFull - discountOf(discount, renewalFull) : null,
      renewal_full_amount: renews ? renewalFull : null,
    },
  };
}

/**
 * What the first payment of an order should be before tax, given the discount its gateway reports.
 * The marketplace rounds a percentage once on the whole order; a gateway that rounds it line by line
 * may differ by a cent a line at most. Within that, the gateway's figure is taken (the ledger records
 * what it took off); beyond it, the order's own.
 */
export function expectedFirstPayment(
  order: { readonly due_today: number; readonly discount_total: number; readonly discount_id: string | null },
  lines: number,
  reportedDiscount: number,
): number {
  if (order.discount_id === null) return order.due_today;
  const difference = order.discount_total - reportedDiscount;
  return Math.abs(difference) < Math.max(1, lines) ? order.due_today + difference : order.due_today;
}

/** What the code takes off each renewal while it lasts: 0 without a code or a discounted renewal. */
export const discountPerRenewal = (totals: Pick<DiscountedTotals, "discount">): number => {
  const applied = totals.discount;
  if (!applied || applied.renewal_amount === null || applied.renewal_full_amount === null) return 0;
  return applied.renewal_full_amount - applied.renewal_amount;
};

/**
 * What the `n`th payment of a subscription order (1: the first) should be before tax: the renewing
 * items' price, less the code's discount while it lasts.
 */
export function expectedRenewal(
  order: { readonly discount_payments: number | null; readonly discount_renewal: number },
  renewalFull: number,
  n: number,
): number {
  const lasts = order.discount_payments === null || n <= order.discount_payments;
  return lasts ? renewalFull - order.discount_renewal : renewalFull;
}
