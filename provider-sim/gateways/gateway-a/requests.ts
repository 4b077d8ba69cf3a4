import { PaddleError } from "./errors.ts";
import {
  amount,
  currencyCode,
  customData,
  cycle,
  email,
  list,
  money,
  object,
  oneOf,
  onlyKnown,
  optionalText,
  quantity,
  text,
} from "./fields.ts";
import { KNOWN } from "./known-fields.ts";
import { type Cycle, type Json, type Money, TAX_MODES, type TaxMode } from "./model.ts";
import { PRORATION_MODES, type ProrationMode } from "./plan-changes.ts";

export interface ProductInput {
  readonly name: string;
  readonly tax_category: string;
  readonly description: string | null;
  readonly image_url: string | null;
  readonly custom_data: Json | null;
}

export interface PriceInput {
  readonly description: string;
  readonly name: string | null;
  readonly unit_price: Money;
  readonly billing_cycle: Cycle | null;
  readonly trial_period: Cycle | null;
  readonly tax_mode: TaxMode;
  readonly custom_data: Json | null;
}

export interface PriceUpdate {
  readonly description?: string;
  readonly name?: string | null;
  readonly unit_price?: Money;
  readonly custom_data?: Json | null;
  readonly status?: "active" | "archived";
}

export type TransactionItemInput =
  | { readonly price_id: string; readonly quantity: number }
  | {
      readonly price: PriceInput & { readonly product_id: string | null; readonly product: ProductInput | null };
      readonly quantity: number;
    };

export interface TransactionInput {
  readonly items: readonly TransactionItemInput[];
  /** The currency to bill in; the sandbox converts nothing, so every item must be priced in it. */
  readonly currency_code: string | null;
  readonly custom_data: Json | null;
  /** The Paddle customer the transaction is for; null lets checkout ask the buyer. */
  readonly customer_id: string | null;
  /** A catalog discount to apply (`dsc_...`). */
  readonly discount_id: string | null;
}

export interface CustomerInput {
  readonly email: string;
  readonly name: string | null;
  readonly custom_data: Json | null;
  readonly locale: string;
}

export interface RefundInput {
  readonly transaction_id: string;
  readonly reason: string;
  readonly type: "full" | "partial";
  readonly items: readonly { readonly item_id: string; readonly amount: string | null }[];
}

/** The JSON object a request carried; 400 `bad_request` when the bytes are not one. */
export function parseJsonObject(raw: Uint8Array): Json {
  try {
    const parsed: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(raw));
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) return parsed as Json;
  } catch {
    // Answered below.
  }
  throw new PaddleError(400, "bad_request", "The request body must be a JSON object.");
}

export function productInput(body: Json, field?: string): ProductInput {
  onlyKnown(body, KNOWN.product, field);
  const at = field ?? "body";
  return {
    name: text(body.name, `${at}.name`),
    tax_category: text(body.tax_category, `${at}.tax_category`),
    description: optionalText(body.description, `${at}.description`),
    image_url: optionalText(body.image_url, `${at}.image_url`),
    custom_data: customData(body.custom_data, `${at}.custom_data`),
  };
}

export function priceInput(body: Json, field = "body"): PriceInput {
  return {
    description: text(body.description, `${field}.description`),
    name: optionalText(body.name, `${field}.name`),
    unit_price: money(body.unit_price, `${field}.unit_price`),
    billing_cycle: cycle(body.billing_cycle, `${field}.billing_cycle`),
    trial_period: cycle(body.trial_period, `${field}.trial_period`),
    tax_mode: oneOf(body.tax_mode, `${field}.tax_mode`, TAX_MODES, "account_setting"),
    custom_data: customData(body.custom_data, `${field}.custom_data`),
  };
}

export function priceUpdate(body: Json): PriceUpdate {
  onlyKnown(body, KNOWN.priceUpdate);
  const update: PriceUpdate = {
    ...(body.description !== undefined ? { description: text(body.description, "description") } : {}),
    ...(body.name !== undefined ? { name: optionalText(body.name, "name") } : {}),
    ...(body.unit_price !== undefined ? { unit_price: money(body.unit_price, "unit_price") } : {}),
    ...(body.custom_data !== undefined ? { custom_data: customData(body.custom_data, "custom_data") } : {}),
    ...(body.status !== undefined ? { status: oneOf(body.status, "status", ["active", "archived"] as const) } : {}),
  };
  if (Object.keys(update).length === 0) throw PaddleError.invalidField("body", "must change at least one field");
  return update;
}

function transactionItem(value: unknown, field: string): TransactionItemInput {
  const item = onlyKnown(object(value, field), KNOWN.transactionItem, field);
  const count = quantity(item.quantity, `${field}.quantity`);
  if (item.price_id !== undefined) return { price_id: text(item.price_id, `${field}.price_id`), quantity: count };
  const price = onlyKnown(object(item.price, `${field}.price`), KNOWN.inlinePrice, `${field}.price`);
  const productId = optionalText(price.product_id, `${field}.price.product_id`);
  const product =
    price.product === undefined || price.product === null
      ? null
      : productInput(object(price.product, `${field}.price.product`), `${field}.price.product`);
  if ((productId === null) === (product === null)) {
    throw PaddleError.invalidField(`${field}.price`, "needs exactly one of product_id and product");
  }
  return { price: { ...priceInput(price, `${field}.price`), product_id: productId, product }, quantity: count };
}

export function transactionInput(body: Json): TransactionInput {
  onlyKnown(body, KNOWN.transaction);
  return {
    items: list(body.items, "items").map((item, i) => transactionItem(item, `items[${i}]`)),
    currency_code:
      body.currency_code === undefined || body.currency_code === null
        ? null
        : currencyCode(body.currency_code, "currency_code"),
    custom_data: customData(body.custom_data, "custom_data"),
    customer_id: optionalText(body.customer_id, "customer_id"),
    discount_id: optionalText(body.discount_id, "discount_id"),
  };
}

export function customerInput(body: Json): CustomerInput {
  onlyKnown(body, KNOWN.customer);
  return {
    email: email(body.email, "email"),
    name: optionalText(body.name, "name"),
    custom_data: customData(body.custom_data, "custom_data"),
    locale: body.locale === undefined ? "en" : text(body.locale, "locale"),
  };
}

export type SubscriptionPatch =
  | { readonly kind: "scheduled_change" }
  | {
      readonly kind: "items";
      readonly items: readonly TransactionItemInput[];
      readonly mode: ProrationMode;
      readonly next_billed_at: string | null;
    };

const ITEMS_PATCH = new Set(["items", "proration_billing_mode", "next_billed_at", "on_payment_failure"]);

/**
 * `PATCH /subscriptions/{id}` (and its `/preview`): the sandbox changes `scheduled_change` (only to
 * null), or the items with `proration_billing_mode` (required with them), a `next_billed_at` and
 * `on_payment_failure`; other fields Paddle knows are refused.
 */
export function subscriptionPatch(body: Json): SubscriptionPatch {
  onlyKnown(body, KNOWN.subscriptionUpdate);
  if (body.items === undefined) {
    const unknown = Object.keys(body).find((key) => key !== "scheduled_change");
    if (unknown !== undefined) throw PaddleError.invalidField(unknown, "cannot be changed in the sandbox");
    if (body.scheduled_change !== null) throw PaddleError.invalidField("scheduled_change", "can only be set to null");
    return { kind: "scheduled_change" };
  }
  const unknown = Object.keys(body).find((key) => !ITEMS_PATCH.has(key));
  if (unknown !== undefined) throw PaddleError.invalidField(unknown, "cannot be changed with items in the sandbox");
  if (body.proration_billing_mode === undefined) {
    throw PaddleError.invalidField("proration_billing_mode", "is required when items change");
  }
  if (body.on_payment_failure !== undefined) {
    oneOf(body.on_payment_failure, "on_payment_failure", ["prevent_change", "apply_change"] as const);
  }
  const next =
    body.next_billed_at === undefined || body.next_billed_at === null
      ? null
      : text(body.next_billed_at, "next_billed_at");
  if (next !== null && Number.isNaN(Date.parse(next))) {
    throw PaddleError.invalidField("next_billed_at", "is not an RFC 3339 time");
  }
  return {
    kind: "items",
    items: list(body.items, "items").map((item, i) => transactionItem(item, `items[${i}]`)),
    mode: oneOf(body.proration_billing_mode, "proration_billing_mode", PRORATION_MODES),
    next_billed_at: next === null ? null : new Date(next).toISOString(),
  };
}

export function refundInput(body: Json): RefundInput {
  onlyKnown(body, KNOWN.adjustment);
  oneOf(body.action, "action", ["refund"] as const);
  const items = body.items === undefined || body.items === null ? [] : list(body.items, "items");
  const type = oneOf(body.type, "type", ["full", "partial"] as const, items.length > 0 ? "partial" : "full");
  if (type === "partial" && items.length === 0)
    throw PaddleError.invalidField("items", "are required for a partial refund");
  return {
    transaction_id: text(body.transaction_id, "transaction_id"),
    reason: text(body.reason, "reason"),
    type,
    items: items.map((value, i) => {
      const item = onlyKnown(object(value, `items[${i}]`), KNOWN.adjustmentItem, `items[${i}]`);
      const itemType = oneOf(item.type, `items[${i}].type`, ["full", "partial"] as const, "partial");
      return {
        item_id: text(item.item_id, `items[${i}].item_id`),
        amount: itemType === "partial" ? amount(item.amount, `items[${i}].amount`) : null,
      };
    }),
  };
}
