import { newGatewayId } from "../ids.ts";
import { splitTax, type TaxSplit } from "../tax.ts";
import { discountShares } from "./discount-money.ts";
import { covers, refuseOtherCurrency } from "./discount-terms.ts";
import type { PaddleDiscount } from "./discounts.ts";
import { PaddleError } from "./errors.ts";
import type { Json, PaddlePrice, PaddleProduct, Period } from "./model.ts";
import type { PaddleLineItem, PaddleTransaction, PaymentAttempt, Totals } from "./transaction-model.ts";

export interface PricedLine {
  readonly price: PaddlePrice;
  readonly product: PaddleProduct;
  readonly quantity: number;
}

/** The sandbox's tax: one rate, and what `tax_mode: "account_setting"` means (Paddle's `default_tax_mode`). */
export interface PaddleTaxSettings {
  readonly rate: number;
  readonly default_tax_mode: "exclusive" | "inclusive";
}

const totalsOf = (split: TaxSplit): Totals => ({
  subtotal: String(split.net),
  discount: "0",
  tax: String(split.tax),
  total: String(split.gross),
});

export function taxIncluded(price: PaddlePrice, tax: PaddleTaxSettings): boolean {
  return (
    price.tax_mode === "internal" || (price.tax_mode === "account_setting" && tax.default_tax_mode === "inclusive")
  );
}

/** What a line costs now: a recurring price in its trial is due when the trial ends. */
export function dueNow(line: PricedLine, chargeTrials: boolean): number {
  const inTrial = !chargeTrials && line.price.billing_cycle !== null && line.price.trial_period !== null;
  return inTrial ? 0 : Number(line.price.unit_price.amount) * line.quantity;
}

/** One payment attempt by the sandbox's test card. */
export function paymentAttempt(amount: string, captured: boolean, at: string): PaymentAttempt {
  return {
    payment_attempt_id: crypto.randomUUID(),
    stored_payment_method_id: crypto.randomUUID(),
    payment_method_id: newGatewayId("paymtd"),
    amount,
    status: captured ? "captured" : "error",
    error_code: captured ? null : "declined",
    method_details: {
      type: "card",
      card: { type: "visa", last4: "4242", expiry_month: 12, expiry_year: 2030, cardholder_name: "Sandbox Customer" },
      paypal: null,
      south_korea_local_card: null,
      underlying_details: null,
    },
    created_at: at,
    captured_at: captured ? at : null,
  };
}

/**
 * A line's money: its amount before tax (`subtotal`), less its share of the discount, then taxed by
 * its price's tax mode. An undiscounted tax-inclusive line keeps the tax its amount holds.
 */
function lineTotals(due: number, share: number, rate: number, included: boolean): Totals {
  const split = splitTax(due, rate, included);
  if (share === 0) return totalsOf(split);
  const discounted = split.net - share;
  const tax = Math.round(discounted * rate);
  return { subtotal: String(split.net), discount: String(share), tax: String(tax), total: String(discounted + tax) };
}

function lineItem(line: PricedLine, due: number, share: number, tax: PaddleTaxSettings): PaddleLineItem {
  const included = taxIncluded(line.price, tax);
  const unit = due === 0 ? 0 : Number(line.price.unit_price.amount);
  return {
    id: newGatewayId("txnitm"),
    price_id: line.price.id,
    quantity: line.quantity,
    tax_rate: String(tax.rate),
    proration: null,
    totals: lineTotals(due, share, tax.rate, included),
    unit_totals: totalsOf(splitTax(unit, tax.rate, included)),
    product: line.product,
  };
}

const sumTotals = (items: readonly PaddleLineItem[]): Totals => {
  const add = (field: keyof Totals) => String(items.reduce((sum, item) => sum + Number(item.totals[field]), 0));
  return { subtotal: add("subtotal"), discount: add("discount"), tax: add("tax"), total: add("total") };
};

/** What `discount` takes from each line due now. */
function shares(discount: PaddleDiscount | null, lines: readonly PricedLine[], dues: number[], tax: PaddleTaxSettings) {
  if (discount === null) return lines.map(() => 0);
  return discountShares(
    discount,
    lines.map((line, i) => ({
      amount: splitTax(dues[i] ?? 0, tax.rate, taxIncluded(line.price, tax)).net,
      quantity: line.quantity,
      eligible: covers(discount, line.price.id, line.product.id),
    })),
  );
}

/**
 * A transaction over priced lines, less `discount` if any. Each line is taxed by its price's
 * `tax_mode` on its discounted amount; `totals.total` and `grand_total` are what the customer pays
 * (`subtotal` - `discount` + `tax`), `subtotal` is the lines' amount before discount and tax.
 */
export function buildTransaction(input: {
  readonly lines: readonly PricedLine[];
  readonly custom_data: Json | null;
  /** Defaults to the first line's currency. */
  readonly currency_code?: string | null;
  readonly origin: PaddleTransaction["origin"];
  readonly status: PaddleTransaction["status"];
  readonly checkoutUrl: (id: string) => string | null;
  readonly now: string;
  readonly tax: PaddleTaxSettings;
  readonly discount?: PaddleDiscount | null;
  readonly subscription?: { readonly id: string; readonly period: Period };
  readonly customer?: { readonly customer_id: string; readonly address_id: string };
  /** A customer named before checkout, without an address yet. */
  readonly customer_id?: string | null;
}): PaddleTransaction {
  const currency = input.currency_code ?? input.lines[0]?.price.unit_price.currency_code ?? "USD";
  // The sandbox converts no currencies, so a price in another currency cannot be billed.
  input.lines.forEach((line, i) => {
    if (line.price.unit_price.currency_code !== currency) {
      throw PaddleError.invalidField(
        `items[${i}]`,
        `is priced in ${line.price.unit_price.currency_code}, not ${currency}`,
      );
    }
  });
  const discount = input.discount ?? null;
  if (discount) refuseOtherCurrency(discount, currency);
  const id = newGatewayId("txn");
  const renewal = input.origin === "subscription_recurring";
  const dues = input.lines.map((line) => dueNow(line, renewal));
  const taken = shares(discount, input.lines, dues, input.tax);
  const lineItems = input.lines.map((line, i) => lineItem(line, dues[i] ?? 0, taken[i] ?? 0, input.tax));
  const sum = sumTotals(lineItems);
  return {
    id,
    status: input.status,
    origin: input.origin,
    customer_id: input.customer?.customer_id ?? input.customer_id ?? null,
    address_id: input.customer?.address_id ?? null,
    business_id: null,
    custom_data: input.custom_data,
    currency_code: currency,
    collection_mode: "automatic",
    subscription_id: input.subscription?.id ?? null,
    invoice_id: null,
    invoice_number: null,
    discount_id: discount?.id ?? null,
    billing_details: null,
    billing_period: input.subscription?.period ?? null,
    items: input.lines.map((line) => ({
      price_id: line.price.id,
      price: line.price,
      quantity: line.quantity,
      proration: null,
    })),
    details: {
      tax_rates_used: [{ tax_rate: String(input.tax.rate), totals: sum }],
      totals: {
        ...sum,
        credit: "0",
        credit_to_balance: "0",
        balance: "0",
        grand_total: sum.total,
        grand_total_tax: sum.tax,
        fee: null,
        earnings: null,
        currency_code: currency,
      },
      line_items: lineItems,
    },
    payments: [],
    checkout: { url: input.checkoutUrl(id) },
    created_at: input.now,
    updated_at: input.now,
    billed_at: null,
  };
}

/**
 * `transaction` paid and fully processed at `at`: Paddle then adds the captured payment, the
 * payout figures (`fee`, `earnings`) and an invoice number.
 */
export function completed(transaction: PaddleTransaction, at: string): PaddleTransaction {
  const totals = transaction.details.totals;
  const captured = Number(totals.grand_total) > 0 ? [paymentAttempt(totals.grand_total, true, at)] : [];
  return {
    ...transaction,
    status: "completed",
    invoice_id: newGatewayId("inv"),
    invoice_number: `SANDBOX-${transaction.id.slice(-6)}`,
    // The sandbox takes no fee: the seller earns the amount before tax, after the discount.
    details: {
      ...transaction.details,
      totals: { ...totals, fee: "0", earnings: String(Number(totals.subtotal) - Number(totals.discount)) },
    },
    payments: [...captured, ...transaction.payments],
    updated_at: at,
    billed_at: transaction.billed_at ?? at,
  };
}
