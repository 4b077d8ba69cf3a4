import { newGatewayId } from "../ids.ts";
import { splitTax, sumSplits, type TaxSplit } from "../tax.ts";
import { addCycle, type PaddleSubscription } from "./model.ts";
import type { ChangeLine, ItemsReplacement } from "./plan-changes.ts";
import type { PaddleLineItem, PaddleTransaction, Totals } from "./transaction-model.ts";
import { type PaddleTaxSettings, taxIncluded } from "./transactions.ts";

const totalsOf = (split: TaxSplit): Totals => ({
  subtotal: String(split.net),
  discount: "0",
  tax: String(split.tax),
  total: String(split.gross),
});

function lineItem(change: ChangeLine, tax: PaddleTaxSettings): PaddleLineItem {
  const included = taxIncluded(change.line.price, tax);
  const unit = Number(change.line.price.unit_price.amount);
  return {
    id: newGatewayId("txnitm"),
    price_id: change.line.price.id,
    quantity: change.quantity,
    tax_rate: String(tax.rate),
    proration: change.proration,
    totals: totalsOf(splitTax(change.amount, tax.rate, included)),
    unit_totals: totalsOf(splitTax(unit, tax.rate, included)),
    product: change.line.product,
  };
}

/**
 * The details of a change's transaction: negative credit lines and the charges, each taxed by its
 * price; credit beyond the charges goes to the customer's balance (`credit_to_balance`), and the
 * customer pays `grand_total`.
 */
export function changeDetails(lines: readonly ChangeLine[], currency: string, tax: PaddleTaxSettings) {
  const items = lines.map((line) => lineItem(line, tax));
  const sum = sumSplits(
    items.map((item) => ({
      net: Number(item.totals.subtotal),
      tax: Number(item.totals.tax),
      gross: Number(item.totals.total),
    })),
  );
  const due = Math.max(0, sum.gross);
  return {
    tax_rates_used: [{ tax_rate: String(tax.rate), totals: totalsOf(sum) }],
    totals: {
      ...totalsOf(sum),
      credit: "0",
      credit_to_balance: String(Math.max(0, -sum.gross)),
      balance: "0",
      grand_total: String(due),
      grand_total_tax: String(due === 0 ? 0 : sum.tax),
      fee: null,
      earnings: null,
      currency_code: currency,
    },
    line_items: items,
  };
}

/** The transaction that bills a change at once (`origin: subscription_update`), billed now. */
export function changeTransaction(
  subscription: PaddleSubscription,
  replacement: ItemsReplacement,
  tax: PaddleTaxSettings,
  now: string,
): PaddleTransaction {
  return {
    id: newGatewayId("txn"),
    status: "billed",
    origin: "subscription_update",
    customer_id: subscription.customer_id,
    address_id: subscription.address_id,
    business_id: null,
    custom_data: subscription.custom_data,
    currency_code: subscription.currency_code,
    collection_mode: "automatic",
    subscription_id: subscription.id,
    invoice_id: null,
    invoice_number: null,
    discount_id: null,
    billing_details: null,
    billing_period: replacement.period,
    items: replacement.lines.map((line) => ({
      price_id: line.line.price.id,
      price: line.line.price,
      quantity: line.quantity,
      proration: line.proration,
    })),
    details: changeDetails(replacement.lines, subscription.currency_code, tax),
    payments: [],
    checkout: { url: null },
    created_at: now,
    updated_at: now,
    billed_at: now,
  };
}

/**
 * `PATCH /subscriptions/{id}/preview`: the subscription as it would be (no `id`, as Paddle answers
 * a preview), the transaction billed at once, the next one, what each renewal bills, and a summary.
 */
export function previewObject(replacement: ItemsReplacement, tax: PaddleTaxSettings) {
  const { id: _id, ...subscription } = replacement.subscription;
  const currency = subscription.currency_code;
  const immediate = changeDetails(replacement.lines, currency, tax);
  const recurringLines = replacement.subscription.items.map((item) => ({
    line: { price: item.price, product: item.product, quantity: item.quantity },
    quantity: item.quantity,
    amount: Number(item.price.unit_price.amount) * item.quantity,
    proration: null,
  }));
  const recurring = changeDetails(recurringLines, currency, tax);
  const nextStart = new Date(replacement.period.ends_at);
  const nextPeriod = {
    starts_at: replacement.period.ends_at,
    ends_at: addCycle(nextStart, replacement.subscription.billing_cycle).toISOString(),
  };
  // A preview's line items are not stored, so they carry no id.
  const unsaved = (details: ReturnType<typeof changeDetails>) => ({
    ...details,
    line_items: details.line_items.map(({ id: _id, ...item }) => item),
  });
  const credit = replacement.lines.filter((line) => line.amount < 0).reduce((sum, line) => sum - line.amount, 0);
  const charge = replacement.lines.filter((line) => line.amount > 0).reduce((sum, line) => sum + line.amount, 0);
  const money = (amount: number) => ({ amount: String(amount), currency_code: currency });
  return {
    ...subscription,
    immediate_transaction:
      replacement.lines.length === 0
        ? null
        : { billing_period: replacement.period, details: unsaved(immediate), adjustments: [] },
    next_transaction: { billing_period: nextPeriod, details: unsaved(recurring), adjustments: [] },
    recurring_transaction_details: unsaved(recurring),
    update_summary: {
      credit: money(credit),
      charge: money(charge),
      result: {
        action: charge >= credit ? ("charge" as const) : ("credit" as const),
        amount: String(Math.abs(charge - credit)),
        currency_code: currency,
      },
    },
  };
}
