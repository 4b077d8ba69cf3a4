import { newGatewayId } from "../ids.ts";
import { splitTax, sumSplits, type TaxSplit } from "../tax.ts";
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

function lineItem(line: PricedLine, due: number, tax: PaddleTaxSettings): PaddleLineItem {
  const included = taxIncluded(line.price, tax);
  const unit = due === 0 ? 0 : Number(line.price.unit_price.amount);
  return {
    id: newGatewayId("txnitm"),
    price_id: line.price.id,
    quantity: line.quantity,
    tax_rate: String(tax.rate),
    proration: null,
    totals: totalsOf(splitTax(due, tax.rate, included)),
    unit_totals: totalsOf(splitTax(unit, tax.rate, included)),
    product: line.product,
  };
}

/**
 * A transaction over priced lines. Each line is taxed by its price's `tax_mode`; `totals.total` and
 * `grand_total` are what the customer pays, `subtotal` is without tax.
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
  const id = newGatewayId("txn");
  const renewal = input.origin === "subscription_recurring";
  const lineItems = input.lines.map((line) => lineItem(line, dueNow(line, renewal), input.tax));
  const sum = sumSplits(
    lineItems.map((line) => ({
      net: Number(line.totals.subtotal),
      tax: Number(line.totals.tax),
      gross: Number(line.totals.total),
    })),
  );
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
    discount_id: null,
    billing_details: null,
    billing_period: input.subscription?.period ?? null,
    items: input.lines.map((line) => ({
      price_id: line.price.id,
      price: line.price,
      quantity: line.quantity,
      proration: null,
    })),
    details: {
      tax_rates_used: [{ tax_rate: String(input.tax.rate), totals: totalsOf(sum) }],
      totals: {
        ...totalsOf(sum),
        credit: "0",
        credit_to_balance: "0",
        balance: "0",
        grand_total: String(sum.gross),
        grand_total_tax: String(sum.tax),
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
    details: { ...transaction.details, totals: { ...totals, fee: "0", earnings: totals.subtotal } },
    payments: [...captured, ...transaction.payments],
    updated_at: at,
    billed_at: transaction.billed_at ?? at,
  };
}
