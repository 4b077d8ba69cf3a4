/**
 * The request fields Paddle's API (version 1) knows, per body. The sandbox refuses any other field
 * as Paddle does; fields it knows but does not model (a non-catalog discount, billing details) are
 * accepted and have no effect.
 */
const PRODUCT = ["name", "tax_category", "description", "type", "image_url", "custom_data"] as const;
const PRICE = [
  "description",
  "type",
  "name",
  "billing_cycle",
  "trial_period",
  "tax_mode",
  "unit_price",
  "unit_price_overrides",
  "quantity",
  "custom_data",
] as const;

export const KNOWN = {
  product: PRODUCT,
  price: [...PRICE, "product_id"],
  priceUpdate: [...PRICE, "status"],
  /** A non-catalog price inside a transaction item: a catalog product by id, or a product inline. */
  inlinePrice: [...PRICE, "product_id", "product"],
  inlineProduct: PRODUCT,
  transaction: [
    "items",
    "status",
    "customer_id",
    "address_id",
    "business_id",
    "custom_data",
    "currency_code",
    "collection_mode",
    "discount_id",
    "discount",
    "billing_details",
    "billing_period",
    "checkout",
  ],
  transactionItem: ["price_id", "price", "quantity"],
  adjustment: ["action", "items", "reason", "transaction_id", "type", "tax_mode"],
  adjustmentItem: ["item_id", "type", "amount"],
  customer: ["email", "name", "custom_data", "locale"],
  cancel: ["effective_from"],
  subscriptionUpdate: [
    "customer_id",
    "address_id",
    "business_id",
    "currency_code",
    "next_billed_at",
    "discount",
    "collection_mode",
    "billing_details",
    "scheduled_change",
    "items",
    "custom_data",
    "proration_billing_mode",
    "on_payment_failure",
  ],
} as const;
