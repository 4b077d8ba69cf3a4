import type { PaymentGatewayName } from "../catalog/product.ts";
import type { DiscountedItem } from "../discounts/apply.ts";
import type { GatewayEnvironment } from "../payments/gateway-event.ts";
import type { TaxBehavior } from "../payments/payment.ts";
import type { OrderStatus } from "./order-status.ts";

export interface OrderItem extends DiscountedItem {
  readonly id: string;
  readonly order_id: string;
}

export interface Order {
  readonly id: string;
  readonly customer_id: string;
  readonly status: OrderStatus;
  readonly currency: string;
  readonly subtotal: number;
  readonly total: number;
  readonly due_today: number;
  /** The discount code the order was placed with, if any. */
  readonly discount_id: string | null;
  readonly discount_code: string | null;
  /** What the code took off the first payment. */
  readonly discount_total: number;
  /** Payments the code lowers, the first included; null: every one (or no code). */
  readonly discount_payments: number | null;
  /** What the code takes off each renewal while it lasts. */
  readonly discount_renewal: number;
  readonly payment_gateway: PaymentGatewayName;
  readonly gateway_environment: GatewayEnvironment;
  /** Canonical JSON (sorted keys): payment_gateway, gateway_environment and each item's delivery type, variant and options. */
  readonly metadata: string;
  readonly checkout_session_id: string | null;
  readonly checkout_url: string | null;
  /** Why the checkout could not be opened (status `checkout_failed`). */
  readonly flagged_reason: string | null;
  /** Something about the order's money needs a person: it is not delivered automatically meanwhile. */
  readonly needs_attention: boolean;
  readonly attention_reason: string | null;
  /** How the prices the customer was charged treat tax, as the gateway was told at checkout. */
  readonly tax_behavior: TaxBehavior;
  readonly created_at: Date;
  readonly updated_at: Date;
}

/** The metadata sent with a checkout: deterministic and normalized, the same bytes for the same checkout. */
export function orderMetadata(input: {
  payment_gateway: PaymentGatewayName;
  gateway_environment: GatewayEnvironment;
  items: readonly DiscountedItem[];
  /** An upgrade's link to what it upgrades: the original order and its license. */
  upgrade_of?: { readonly order_id: string; readonly license_id: string };
}) {
  return {
    ...(input.upgrade_of ? { upgrade_of: input.upgrade_of } : {}),
    payment_gateway: input.payment_gateway,
    gateway_environment: input.gateway_environment,
    items: input.items.map((item) => ({
      product_id: item.product_id,
      delivery_model: item.delivery_model,
      fulfillment_driver: item.fulfillment_driver,
      variant: item.variant,
      quantity: item.quantity,
      options: item.options,
    })),
  };
}
