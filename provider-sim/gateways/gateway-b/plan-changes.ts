import type { FormObject, FormValue } from "../form-body.ts";
import type { GatewayBCatalog } from "./catalog.ts";
import { StripeError } from "./errors.ts";
import type { InvoiceLineInput } from "./invoice-object.ts";
import { addIntervalUnix, type Period, periodOf, type StripePrice, type StripeSubscription } from "./model.ts";
import { optionalHash, optionalInteger, optionalString, requiredString } from "./params.ts";
import { planOf } from "./subscription-defaults.ts";

export const PRORATION_BEHAVIORS = ["create_prorations", "always_invoice", "none"] as const;
export type ProrationBehavior = (typeof PRORATION_BEHAVIORS)[number];

/** The item a subscription update or preview replaces the price of, and the price it takes. */
export interface PriceChange {
  readonly item: string;
  readonly price: StripePrice;
  readonly productName: string;
  readonly quantity: number;
}

/**
 * `items[0][id]` with `items[0][price]` or `items[0][price_data]` (and `quantity`): the sandbox
 * bills one item per subscription, so a change names that item. An inline price is a price of its
 * own, as at Stripe, on a product that exists.
 */
export function readPriceChange(
  value: FormValue | undefined,
  param: string,
  subscription: StripeSubscription,
  catalog: GatewayBCatalog,
): PriceChange {
  if (!Array.isArray(value) || value.length !== 1) throw StripeError.invalid(param, "expected a list of one item");
  const at = `${param}[0]`;
  const entry = optionalHash(value[0], at) ?? {};
  const id = requiredString(entry.id, `${at}[id]`);
  const current = subscription.items.data.find((item) => item.id === id);
  if (!current) throw StripeError.noSuch("subscription_item", id, `${at}[id]`);
  const priceId = optionalString(entry.price, `${at}[price]`);
  const data = optionalHash(entry.price_data, `${at}[price_data]`);
  if ((priceId === null) === (data === null)) {
    throw StripeError.invalid(at, "exactly one of price and price_data is required");
  }
  const quantity = optionalInteger(entry.quantity, `${at}[quantity]`, 1, 999_999) ?? current.quantity;
  if (priceId !== null) {
    const price = catalog.price(priceId, `${at}[price]`);
    if (!price.active) throw StripeError.invalid(`${at}[price]`, `the price ${priceId} is not active`);
    if (!price.recurring) throw StripeError.invalid(`${at}[price]`, "a subscription item needs a recurring price");
    return { item: id, price, productName: catalog.product(price.product).name, quantity };
  }
  const form = data as FormObject;
  const product = catalog.product(
    requiredString(form.product, `${at}[price_data][product]`),
    `${at}[price_data][product]`,
  );
  if (form.recurring === undefined) throw StripeError.missing(`${at}[price_data][recurring]`);
  // An inline price is inactive, as Stripe makes it: it bills this subscription and nothing else.
  const price = catalog.addPrice({ ...catalog.buildPrice(form, product.id, `${at}[price_data]`), active: false });
  return { item: id, price, productName: product.name, quantity };
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** Stripe's way of writing a proration's date: "29 Nov 2026". */
function day(unix: number): string {
  const at = new Date(unix * 1000);
  return `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}`;
}

const sameInterval = (a: StripePrice, b: StripePrice) =>
  a.recurring?.interval === b.recurring?.interval && a.recurring?.interval_count === b.recurring?.interval_count;

/** What replacing an item's price at `at` does to the subscription and what it bills. */
export interface PriceReplacement {
  readonly subscription: StripeSubscription;
  /** The lines of the change: credit for the unused time, then the new price (prorated or whole). */
  readonly lines: readonly InvoiceLineInput[];
  /** Whether the lines are invoiced and collected now; otherwise they wait for the next renewal. */
  readonly invoiceNow: boolean;
}

/**
 * Stripe's proration, to the second: the unused part of the period is credited at the old price.
 * With the same interval, the rest of the period is charged at the new price and the period stays
 * (`always_invoice` bills it now, `create_prorations` with the next renewal, `none` not at all).
 * Another interval starts a new period now (the billing cycle anchor resets) and bills the whole new
 * price at once, whatever the behavior; `none` only leaves out the credit. A trial bills nothing.
 */
export function replacePrice(
  subscription: StripeSubscription,
  change: PriceChange,
  at: number,
  behavior: ProrationBehavior,
): PriceReplacement {
  const item = subscription.items.data.find((each) => each.id === change.item);
  if (!item) throw StripeError.noSuch("subscription_item", change.item, "items[0][id]");
  const period = periodOf(subscription);
  const newInterval = !sameInterval(item.price, change.price);
  const recurring = change.price.recurring;
  const next: Period =
    newInterval && recurring
      ? { start: at, end: addIntervalUnix(at, recurring.interval, recurring.interval_count) }
      : period;
  const replaced: StripeSubscription = {
    ...subscription,
    ...(newInterval ? { billing_cycle_anchor: at } : {}),
    items: {
      ...subscription.items,
      data: subscription.items.data.map((each) =>
        each.id === item.id
          ? {
              ...each,
              price: change.price,
              plan: planOf(change.price),
              quantity: change.quantity,
              current_period_start: next.start,
              current_period_end: next.end,
            }
          : { ...each, current_period_start: next.start, current_period_end: next.end },
      ),
    },
  };
  if (subscription.status === "trialing") return { subscription: replaced, lines: [], invoiceNow: false };
  const span = Math.max(1, period.end - period.start);
  const unused = Math.min(1, Math.max(0, (period.end - at) / span));
  const rest = { start: at, end: period.end };
  const credit: InvoiceLineInput = {
    price: item.price,
    quantity: item.quantity,
    amount: -Math.round(item.price.unit_amount * item.quantity * unused),
    item: item.id,
    proration: { description: `Unused time on ${change.productName} after ${day(at)}`, period: rest },
  };
  const credits = behavior === "none" || credit.amount === 0 ? [] : [credit];
  if (newInterval) {
    const whole: InvoiceLineInput = {
      price: change.price,
      quantity: change.quantity,
      amount: change.price.unit_amount * change.quantity,
      item: item.id,
      period: next,
    };
    return { subscription: replaced, lines: [...credits, whole], invoiceNow: true };
  }
  if (behavior === "none") return { subscription: replaced, lines: [], invoiceNow: false };
  const remaining: InvoiceLineInput = {
    price: change.price,
    quantity: change.quantity,
    amount: Math.round(change.price.unit_amount * change.quantity * unused),
    item: item.id,
    proration: { description: `Remaining time on ${change.productName} after ${day(at)}`, period: rest },
  };
  return { subscription: replaced, lines: [...credits, remaining], invoiceNow: behavior === "always_invoice" };
}
