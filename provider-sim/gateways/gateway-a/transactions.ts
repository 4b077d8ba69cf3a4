import { newGatewayId } from "../ids.ts";
import { PaddleError } from "./errors.ts";
import {
  addCycle,
  type Json,
  type PaddleLineItem,
  type PaddlePrice,
  type PaddleProduct,
  type PaddleSubscription,
  type PaddleTransaction,
  type Period,
  type Totals,
} from "./model.ts";

export interface PricedLine {
  readonly price: PaddlePrice;
  readonly product: PaddleProduct;
  readonly quantity: number;
}

const totals = (amount: number): Totals => ({
  subtotal: String(amount),
  discount: "0",
  tax: "0",
  total: String(amount),
});

/** What a line costs now: a recurring price in its trial is due when the trial ends. */
export function dueNow(line: PricedLine, chargeTrials: boolean): number {
  const inTrial = !chargeTrials && line.price.billing_cycle !== null && line.price.trial_period !== null;
  return inTrial ? 0 : Number(line.price.unit_price.amount) * line.quantity;
}

/** A transaction over priced lines; the sandbox charges no tax, so totals are sums of amounts. */
export function buildTransaction(input: {
  readonly lines: readonly PricedLine[];
  readonly custom_data: Json | null;
  /** Defaults to the first line's currency. */
  readonly currency_code?: string | null;
  readonly origin: PaddleTransaction["origin"];
  readonly status: PaddleTransaction["status"];
  readonly checkoutUrl: (id: string) => string | null;
  readonly now: string;
  readonly subscription?: { readonly id: string; readonly period: Period };
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
  const lineItems: PaddleLineItem[] = input.lines.map((line) => {
    const due = dueNow(line, renewal);
    return {
      id: newGatewayId("txnitm"),
      price_id: line.price.id,
      quantity: line.quantity,
      totals: totals(due),
      unit_totals: totals(due / line.quantity),
      product: line.product,
    };
  });
  const total = lineItems.reduce((sum, line) => sum + Number(line.totals.total), 0);
  return {
    id,
    status: input.status,
    origin: input.origin,
    customer_id: null,
    custom_data: input.custom_data,
    currency_code: currency,
    subscription_id: input.subscription?.id ?? null,
    billing_period: input.subscription?.period ?? null,
    items: input.lines.map((line) => ({ price_id: line.price.id, price: line.price, quantity: line.quantity })),
    details: {
      totals: { ...totals(total), grand_total: String(total), balance: "0", currency_code: currency },
      line_items: lineItems,
    },
    checkout: { url: input.checkoutUrl(id) },
    created_at: input.now,
    updated_at: input.now,
    billed_at: input.status === "completed" ? input.now : null,
  };
}

/** The subscription a paid checkout starts when it has recurring lines: trialing when a line has a trial. */
export function startSubscription(transaction: PaddleTransaction, at: Date): PaddleSubscription | undefined {
  const recurring = transaction.items
    .map((item, i) => ({ ...item, product: transaction.details.line_items[i]?.product as PaddleProduct }))
    .filter((item) => item.price.billing_cycle !== null);
  const first = recurring[0];
  if (!first?.price.billing_cycle) return undefined;
  const trial = recurring.find((item) => item.price.trial_period !== null)?.price.trial_period ?? null;
  const now = at.toISOString();
  const ends = (trial ? addCycle(at, trial) : addCycle(at, first.price.billing_cycle)).toISOString();
  const period = { starts_at: now, ends_at: ends };
  return {
    id: newGatewayId("sub"),
    status: trial ? "trialing" : "active",
    customer_id: null,
    currency_code: transaction.currency_code,
    created_at: now,
    updated_at: now,
    started_at: now,
    first_billed_at: trial ? null : now,
    next_billed_at: ends,
    canceled_at: null,
    collection_mode: "automatic",
    billing_cycle: first.price.billing_cycle,
    current_billing_period: period,
    scheduled_change: null,
    items: recurring.map((item) => ({
      status: trial ? "trialing" : "active",
      quantity: item.quantity,
      recurring: true,
      next_billed_at: ends,
      trial_dates: trial ? period : null,
      price: item.price,
      product: item.product,
    })),
    custom_data: transaction.custom_data,
  };
}
