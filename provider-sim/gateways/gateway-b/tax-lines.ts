import { splitTax, type TaxSplit } from "../tax.ts";
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

/** A Checkout Session's `amount_subtotal`, `amount_total` and `total_details`. */
export function sessionAmounts(lines: readonly PricedLine[], rate: number) {
  const splits = lines.map((line) => lineTax(line, rate));
  const subtotal = lines.reduce((sum, line) => sum + line.amount, 0);
  const tax = splits.reduce((sum, split) => sum + split.tax, 0);
  const total = splits.reduce((sum, split) => sum + split.gross, 0);
  const total_details: TotalDetails = { amount_discount: 0, amount_shipping: 0, amount_tax: tax };
  return { amount_subtotal: subtotal, amount_total: total, total_details };
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

/** The totals of an invoice over `lines`: `total_taxes` is empty while the sandbox charges no tax. */
export function invoiceTotals(lines: readonly PricedLine[], rate: number) {
  const subtotal = lines.reduce((sum, line) => sum + line.amount, 0);
  const byBehavior = (wanted: boolean) => {
    const splits = lines.filter((line) => inclusive(line.price) === wanted).map((line) => lineTax(line, rate));
    return { tax: splits.reduce((sum, s) => sum + s.tax, 0), taxable: splits.reduce((sum, s) => sum + s.net, 0) };
  };
  const included = byBehavior(true);
  const added = byBehavior(false);
  const total = subtotal + added.tax;
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
    subtotal_excluding_tax: subtotal - included.tax,
    total,
    total_excluding_tax: total - added.tax - included.tax,
    total_taxes,
  };
}
