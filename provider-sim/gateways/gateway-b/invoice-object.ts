import { newGatewayId } from "../ids.ts";
import { discountApplies, discountable, lineDiscounts, type StripeDiscount } from "./discounts.ts";
import { INVOICE_DEFAULTS } from "./invoice-defaults.ts";
import type { Period, StripeSubscription } from "./model.ts";
import { invoiceTotals, lineTax, type PricedLine, taxEntry } from "./tax-lines.ts";

export interface InvoiceLineInput extends PricedLine {
  /** The subscription item (`si_...`) the line bills; null for a one-time line of the first invoice. */
  readonly item: string | null;
  /** A plan change's line: credit for the unused time (a negative amount), or the rest of a period. */
  readonly proration?: { readonly description: string; readonly period: Period };
  /** The period this line bills, when not the invoice's. */
  readonly period?: Period;
}

export interface NewInvoice {
  readonly subscription: StripeSubscription;
  readonly reason: "subscription_create" | "subscription_cycle" | "subscription_update" | "upcoming";
  readonly lines: readonly InvoiceLineInput[];
  /** The service period the lines bill. */
  readonly period: Period;
  readonly rate: number;
  readonly created: number;
  /** The customer's email, which a finalized invoice keeps a copy of. */
  readonly customerEmail: string | null;
  /** The customer's balance before the invoice: negative is credit, which the invoice uses first. */
  readonly startingBalance?: number;
  /** `upcoming_in_...` for a preview, which is never stored. */
  readonly preview?: boolean;
  /** The subscription's discount, if it has one; the invoice shows it while it lasts. */
  readonly discount?: StripeDiscount | undefined;
}

/** A line's part of the invoice's discount, by the discount's id. */
interface LineDiscount {
  readonly amount: number;
  readonly discount: string;
}

function lineObject(invoice: string, input: NewInvoice, line: InvoiceLineInput, off: LineDiscount | null) {
  const split = lineTax({ ...line, amount: line.amount - (off?.amount ?? 0) }, input.rate);
  const behavior = line.price.tax_behavior === "inclusive" ? "inclusive" : "exclusive";
  const details = {
    proration: line.proration !== undefined,
    proration_details: { credited_items: null },
    subscription: input.subscription.id,
  };
  return {
    id: newGatewayId("il"),
    object: "line_item" as const,
    amount: line.amount,
    currency: line.price.currency,
    description: line.proration?.description ?? `${line.quantity} × ${line.price.nickname ?? line.price.product}`,
    discount_amounts: off ? [off] : [],
    discountable: discountable(line),
    discounts: [],
    invoice,
    livemode: false as const,
    metadata: {},
    parent: line.item
      ? {
          invoice_item_details: null,
          subscription_item_details: { ...details, invoice_item: null, subscription_item: line.item },
          type: "subscription_item_details" as const,
        }
      : {
          invoice_item_details: { ...details, invoice_item: newGatewayId("ii") },
          subscription_item_details: null,
          type: "invoice_item_details" as const,
        },
    period: line.proration?.period ?? line.period ?? { start: input.period.start, end: input.period.end },
    pretax_credit_amounts: off ? [{ ...off, type: "discount" as const }] : [],
    pricing: {
      price_details: { price: line.price.id, product: line.price.product },
      type: "price_details" as const,
      unit_amount_decimal: line.price.unit_amount_decimal,
    },
    quantity: line.quantity,
    quantity_decimal: String(line.quantity),
    subscription: input.subscription.id,
    subtotal: line.amount,
    taxes: input.rate === 0 ? [] : [taxEntry(split.tax, behavior, split.net)],
  };
}

/**
 * An open (finalized, unpaid) subscription invoice. A subscription's discount, while it applies to
 * the billed period, is an invoice-level discount (`discounts`, `total_discount_amounts`) shared
 * across the discountable lines (`discount_amounts` on each). Since 2025-03-31.basil an invoice names its
 * subscription under `parent.subscription_details` and its payments in `payments`, not in
 * `subscription`, `payment_intent` or `charge`. As at Stripe, `period_start`/`period_end` are the
 * invoice's own (the previous period for a renewal); the billed period is on each line.
 */
export function newInvoice(input: NewInvoice) {
  const id = input.preview ? newGatewayId("upcoming_in") : newGatewayId("in");
  const applied =
    input.discount && discountApplies(input.discount, input.reason, input.period.start) ? input.discount : null;
  const shares = applied ? lineDiscounts(applied.source.coupon, input.lines) : input.lines.map(() => 0);
  const totals = invoiceTotals(input.lines, input.rate, shares);
  const lineOff = (line: InvoiceLineInput, i: number) =>
    applied && discountable(line) ? { amount: shares[i] ?? 0, discount: applied.id } : null;
  const total_discount_amounts = applied
    ? [{ amount: shares.reduce((sum, share) => sum + share, 0), discount: applied.id }]
    : [];
  const previous = input.reason === "subscription_cycle" ? input.subscription.items.data[0] : undefined;
  // Credit on the customer's balance pays first; an invoice that comes out negative adds to it.
  const starting = input.startingBalance ?? 0;
  const due = Math.max(0, totals.total + starting);
  return {
    id,
    object: "invoice" as const,
    ...INVOICE_DEFAULTS,
    customer_email: input.customerEmail,
    account_country: "US",
    account_name: "Sandbox",
    amount_due: due,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: due,
    amount_shipping: 0,
    attempt_count: 0,
    attempted: false,
    automatic_tax: { enabled: false, liability: null, disabled_reason: null, provider: null, status: null },
    billing_reason: input.reason,
    collection_method: "charge_automatically" as const,
    created: input.created,
    currency: input.subscription.currency,
    customer: input.subscription.customer,
    default_payment_method: null,
    description: null,
    discounts: applied ? [applied.id] : [],
    due_date: null,
    effective_at: input.created,
    hosted_invoice_url: null as string | null,
    issuer: { type: "self" as const },
    last_finalization_error: null,
    lines: {
      object: "list" as const,
      data: input.lines.map((line, i) => lineObject(id, input, line, lineOff(line, i))),
      has_more: false,
      url: `/v1/invoices/${id}/lines`,
    },
    livemode: false as const,
    metadata: {},
    next_payment_attempt: null,
    number: null as string | null,
    parent: {
      quote_details: null,
      subscription_details: { metadata: input.subscription.metadata, subscription: input.subscription.id },
      type: "subscription_details" as const,
    },
    period_end: previous?.current_period_end ?? input.created,
    period_start: previous?.current_period_start ?? input.created,
    starting_balance: starting,
    ending_balance: Math.min(0, totals.total + starting),
    status: (input.preview ? "draft" : "open") as "draft" | "open" | "paid",
    status_transitions: {
      finalized_at: input.created,
      marked_uncollectible_at: null,
      paid_at: null as number | null,
      voided_at: null,
    },
    ...totals,
    total_discount_amounts,
    total_pretax_credit_amounts: total_discount_amounts.map((entry) => ({ ...entry, type: "discount" as const })),
    webhooks_delivered_at: input.created,
  };
}

export type StripeInvoice = ReturnType<typeof newInvoice>;
