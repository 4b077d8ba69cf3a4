import { splitTax, type TaxSplit } from "../tax.ts";
import type { StripeCoupon } from "./coupons.ts";
import { lineDiscounts } from "./discounts.ts";
import type { StripePrice, TotalDetails } from "./model.ts";

/** What a line costs: `amount` is the unit amount times the quantity, or 0 for a recurring line in its trial. */
export interface PricedLine {
  readonly price: StripePrice;
  readonly quantity: number;
  readonly amount: number;
}

/** The sandbox's one tax rate stands for Stripe Tax or a tax rate; an unspecified behavior is taxed as exclusive. */
export const SANDBOX_TAX_RATE_ID = "txr_sandbox";

export const inclusive = (price: StripePrice) => price.tax_behavior === "inclusive";

export function lineTax(line: PricedLine, rate: number): TaxSplit {
  return splitTax(line.amount, rate, inclusive(line.price));
}

/** The line less its part of the discount: what tax is computed on. */
const discounted = (line: PricedLine, discount: number): PricedLine => ({ ...line, amount: line.amount - discount });

const sum = (values: readonly number[]) => values.reduce((acc, value) => acc + value, 0);

/**
 * A Checkout Session's `amount_subtotal` (the lines), `total_details` (the coupon's discount, and
 * the tax on the discounted lines) and `amount_total` (subtotal less discount plus exclusive tax).
 */
export function sessionAmounts(lines: readonly PricedLine[], rate: number, coupon: StripeCoupon | null) {
  const discounts = coupon ? lineDiscounts(coupon, lines) : lines.map(() => 0);
  const splits = lines.map((line, i) => lineTax(discounted(line, discounts[i] ?? 0), rate));
  const total_details: TotalDetails = {
    amount_discount: sum(discounts),
    amount_shipping: 0,
    amount_tax: sum(splits.map((split) => split.tax)),
  };
  return {
    amount_subtotal: sum(lines.map((line) => line.amount)),
    amount_total: sum(splits.map((split) => split.gross)),
    total_details,
  };
}

/** One entry of an invoice's `total_taxes` or a line's `taxes`. */
export function taxEntry(amount: number, behavior: "exclusive" | "inclusive", taxable: number) {
  return {
    amount,
    tax_behavior: behavior,
    tax_rate_details: { tax_rate: SANDBOX_TAX_RATE_ID },
    taxability_reason: "standard_rated" as const,
    taxable_amount: taxable,
    type: "tax_rate_details" as const,
  };
}

/**
 * The totals of an invoice over `lines`, each less its part of the discount (`discounts`, by line):
 * tax is on the discounted amounts, and `total` is the subtotal less the discount plus exclusive
 * tax. `total_taxes` is empty while the sandbox charges no tax.
 */
export function invoiceTotals(lines: readonly PricedLine[], rate: number, discounts: readonly number[]) {
  const subtotal = sum(lines.map((line) => line.amount));
  const discount = sum(discounts);
  const byBehavior = (wanted: boolean) => {
    const splits = lines.flatMap((line, i) =>
      inclusive(line.price) === wanted ? [lineTax(discounted(line, discounts[i] ?? 0), rate)] : [],
    );
    return { tax: sum(splits.map((s) => s.tax)), taxable: sum(splits.map((s) => s.net)) };
  };
  const included = byBehavior(true);
  const added = byBehavior(false);
  // Before any discount, as Stripe's `subtotal_excluding_tax` is.
  const includedBeforeDiscount = sum(
    lines.filter((line) => inclusive(line.price)).map((line) => lineTax(line, rate).tax),
  );
  const total = subtotal - discount + added.tax;
  const total_taxes =
    rate === 0
      ? []
      : [
          ...(lines.some((line) => !inclusive(line.price)) ? [taxEntry(added.tax, "exclusive", added.taxable)] : []),
          ...(lines.some((line) => inclusive(line.price))
            ? [taxEntry(included.tax, "inclusive", included.taxable)]
            : []),
        ];
  return {
    subtotal,
    subtotal_excluding_tax: subtotal - includedBeforeDiscount,
    total,
    total_excluding_tax: total - added.tax - included.tax,
    total_taxes,
  };
}
