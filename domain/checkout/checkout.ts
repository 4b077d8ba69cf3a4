import type { DeliveryModel, FulfillmentDriver } from "../catalog/drivers.ts";
import {
  type BillingInterval,
  type PaymentType,
  type PricingMapping,
  paymentTypeOf,
  resolvePrice,
  variantsFor,
} from "../catalog/pricing.ts";
import type { Product } from "../catalog/product.ts";
import type { Variant } from "../catalog/variants.ts";
import type { FieldError } from "../shared/domain-error.ts";
import { ValidationFailed } from "../shared/errors.ts";
import { checkSelectedOptions, type SelectedOptions } from "./checkout-options.ts";

export interface CheckoutItemInput {
  readonly product_id: string;
  readonly variant: Variant;
  readonly quantity?: number;
  readonly options?: unknown;
}

export interface PricedItem {
  readonly product_id: string;
  readonly product_name: string;
  readonly variant: Variant;
  readonly payment_type: PaymentType;
  readonly license_type: string | null;
  readonly billing_interval: BillingInterval | null;
  readonly unit_price: number;
  readonly quantity: number;
  readonly amount: number;
  readonly trial_days: number | null;
  readonly due_today: number;
  readonly delivery_model: DeliveryModel;
  readonly fulfillment_driver: FulfillmentDriver;
  readonly options: SelectedOptions;
}

export interface CheckoutTotals {
  readonly items: readonly PricedItem[];
  readonly subtotal: number;
  readonly total: number;
  /** What is charged at checkout: subscription items in a trial are due when the trial ends. */
  readonly due_today: number;
  readonly currency: string;
}

export const MAX_QUANTITY = 100;
/** Lines of one checkout: at least one, at most this many. */
export const MAX_CHECKOUT_ITEMS = 20;

/** Only a license can be bought several times over (as seats); a workspace or a service is one thing. */
const allowsQuantity = (driver: FulfillmentDriver) => driver === "license_download";

/**
 * Prices a checkout with the one price rule (`resolvePrice`). Every problem is reported at once
 * with its item path. Identical input gives identical output.
 */
export function calculateCheckout(
  items: readonly CheckoutItemInput[],
  catalog: ReadonlyMap<string, { product: Product; mappings: readonly PricingMapping[] }>,
  currency: string,
): CheckoutTotals {
  const errors: FieldError[] = [];
  const priced: PricedItem[] = [];
  if (items.length === 0 || items.length > MAX_CHECKOUT_ITEMS) {
    errors.push({
      path: "/items",
      code: "ITEM_COUNT_OUT_OF_RANGE",
      message: `must hold 1 to ${MAX_CHECKOUT_ITEMS} items`,
    });
  }
  items.forEach((item, i) => {
    const at = (field: string) => `/items/${i}/${field}`;
    const entry = catalog.get(item.product_id);
    if (entry?.product.status !== "published") {
      errors.push({ path: at("product_id"), code: "PRODUCT_NOT_AVAILABLE", message: "is not a product on sale" });
      return;
    }
    const { product, mappings } = entry;
    const quantity = item.quantity ?? 1;
    if (quantity !== 1 && !allowsQuantity(product.fulfillment_driver)) {
      errors.push({
        path: at("quantity"),
        code: "QUANTITY_NOT_SUPPORTED",
        message: "this product is bought one at a time",
      });
    }
    const options = checkSelectedOptions(item.options, at("options"), errors);
    const resolved = variantsFor(product).includes(item.variant)
      ? resolvePrice(product, mappings, item.variant)
      : undefined;
    if (!resolved) {
      errors.push({
        path: at("variant"),
        code: "VARIANT_NOT_OFFERED",
        message: `this product is not sold as ${item.variant}`,
      });
      return;
    }
    const payment_type = paymentTypeOf(item.variant);
    const billing_interval = payment_type === "subscription" ? (item.variant as BillingInterval) : null;
    const trial_days = billing_interval && product.supports_trial ? product.trial_days : null;
    const amount = resolved.price * quantity;
    priced.push({
      product_id: product.id,
      product_name: product.name,
      variant: item.variant,
      payment_type,
      license_type: payment_type === "one_time" ? item.variant : (resolved.mapping?.license_type ?? null),
      billing_interval,
      unit_price: resolved.price,
      quantity,
      amount,
      trial_days,
      due_today: trial_days ? 0 : amount,
      delivery_model: product.delivery_model,
      fulfillment_driver: product.fulfillment_driver,
      options,
    });
  });
  const intervals = new Set(priced.map((p) => p.billing_interval).filter(Boolean));
  if (intervals.size > 1) {
    errors.push({
      path: "/items",
      code: "MIXED_BILLING_INTERVALS",
      message: "monthly and yearly subscriptions need separate checkouts",
    });
  }
  if (errors.length > 0) throw new ValidationFailed(errors, "The checkout is not valid.");
  const subtotal = priced.reduce((sum, p) => sum + p.amount, 0);
  return {
    items: priced,
    subtotal,
    total: subtotal,
    due_today: priced.reduce((sum, p) => sum + p.due_today, 0),
    currency,
  };
}
