import type {
  RefundResult,
  RemotePrice,
  RemoteProduct,
  RemoteSubscription,
} from "../../../application/payments/ports.ts";
import { UpstreamBadResponse } from "../../../application/shared/errors.ts";
import type { BillingInterval } from "../../../domain/catalog/pricing.ts";
import { VARIANTS, type Variant } from "../../../domain/catalog/variants.ts";
import { TAX_BEHAVIORS } from "../../../domain/payments/payment.ts";
import { isRecord } from "../../../domain/shared/is-record.ts";
import { createFieldReader, type Fields } from "./stripe-fields.ts";

const read = createFieldReader((reason) => {
  throw new UpstreamBadResponse("gateway", reason);
});

const REFUND_STATUSES: Readonly<Record<string, RefundResult["status"]>> = {
  succeeded: "succeeded",
  pending: "pending",
  requires_action: "pending",
  failed: "failed",
  canceled: "failed",
};

const INTERVALS: Readonly<Record<string, BillingInterval>> = { month: "monthly", year: "yearly" };

const metadataOf = (object: Fields): Fields => (isRecord(object.metadata) ? object.metadata : {});

function object(body: unknown, kind: string): Fields {
  const fields = read.record(body, "the body");
  if (fields.object !== kind) throw new UpstreamBadResponse("gateway", `expected a ${kind}`);
  return fields;
}

export function readCheckoutSession(body: unknown): { id: string; url: string } {
  const session = object(body, "checkout.session");
  const url = read.optionalString(session, "url");
  if (url === null) throw new UpstreamBadResponse("gateway", "the checkout session has no url");
  return { id: read.string(session, "id"), url };
}

export function readRefund(body: unknown): RefundResult {
  const refund = object(body, "refund");
  const status = REFUND_STATUSES[read.string(refund, "status")];
  if (status === undefined) throw new UpstreamBadResponse("gateway", "unknown refund status");
  return { refund_id: read.string(refund, "id"), status };
}

/** Newer API versions keep the billing period on the subscription's items. */
function periodEnd(subscription: Fields): string | null {
  const top = read.optionalTime(subscription, "current_period_end");
  if (top !== null) return top;
  const items = isRecord(subscription.items) && Array.isArray(subscription.items.data) ? subscription.items.data : [];
  return isRecord(items[0]) ? read.optionalTime(items[0], "current_period_end") : null;
}

/** The first item's price: what the subscription bills, and how often (an interval no variant sells is null). */
function billedPrice(subscription: Fields): Pick<RemoteSubscription, "price_id" | "billing_interval"> {
  const items = isRecord(subscription.items) && Array.isArray(subscription.items.data) ? subscription.items.data : [];
  const price = isRecord(items[0]) && isRecord(items[0].price) ? items[0].price : null;
  if (price === null) return { price_id: null, billing_interval: null };
  const recurring = isRecord(price.recurring) ? price.recurring : null;
  const count = recurring ? (read.optionalInteger(recurring, "interval_count") ?? 1) : 0;
  const interval = recurring && count === 1 ? INTERVALS[read.string(recurring, "interval")] : undefined;
  return { price_id: read.string(price, "id"), billing_interval: interval ?? null };
}

export function readSubscription(body: unknown): RemoteSubscription {
  const subscription = object(body, "subscription");
  return {
    ...billedPrice(subscription),
    subscription_id: read.string(subscription, "id"),
    status: read.string(subscription, "status"),
    customer_id: read.optionalId(subscription, "customer"),
    trial_ends_at: read.optionalTime(subscription, "trial_end"),
    current_period_end: periodEnd(subscription),
    cancelled_at: read.optionalTime(subscription, "canceled_at"),
    cancel_at_period_end:
      subscription.cancel_at_period_end === undefined ? false : read.boolean(subscription, "cancel_at_period_end"),
  };
}

export function readProduct(body: unknown): RemoteProduct {
  const product = object(body, "product");
  return {
    id: read.string(product, "id"),
    name: read.string(product, "name"),
    marketplace_product_id: read.optionalString(metadataOf(product), "marketplace_product_id"),
  };
}

export function readProductSearch(body: unknown): RemoteProduct | undefined {
  const result = object(body, "search_result");
  if (!Array.isArray(result.data)) throw new UpstreamBadResponse("gateway", '"data" is not a list');
  return result.data.length === 0 ? undefined : readProduct(result.data[0]);
}

function billingInterval(price: Fields): BillingInterval | null {
  if (price.recurring === null || price.recurring === undefined) return null;
  const interval = INTERVALS[read.string(read.record(price.recurring, "recurring"), "interval")];
  if (interval === undefined) throw new UpstreamBadResponse("gateway", "the price recurs at an unsupported interval");
  return interval;
}

export function readPrice(body: unknown): RemotePrice {
  const price = object(body, "price");
  const variant = read.optionalString(metadataOf(price), "variant");
  return {
    id: read.string(price, "id"),
    product_id: read.id(price, "product"),
    amount: read.integer(price, "unit_amount"),
    currency: read.string(price, "currency").toUpperCase(),
    billing_interval: billingInterval(price),
    variant: VARIANTS.includes(variant as Variant) ? (variant as Variant) : null,
    active: read.boolean(price, "active"),
    tax_behavior: TAX_BEHAVIORS.find((behavior) => behavior === price.tax_behavior) ?? null,
  };
}

/** The price's own metadata, copied whole onto a replacement. */
export function readPriceMetadata(body: unknown): Readonly<Record<string, string>> {
  const metadata = metadataOf(object(body, "price"));
  return Object.fromEntries(
    Object.entries(metadata).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
}

export function checkBalance(body: unknown): void {
  object(body, "balance");
}
