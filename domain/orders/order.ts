import type { PaymentGatewayName } from "../catalog/product.ts";
import type { PricedItem } from "../checkout/checkout.ts";
import type { GatewayEnvironment } from "../payments/gateway-event.ts";
import { DomainError } from "../shared/domain-error.ts";

export const ORDER_STATUSES = [
  "pending_payment",
  "checkout_failed",
  "paid",
  "flagged",
  "partially_refunded",
  "refunded",
  "cancelled",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export interface OrderItem extends PricedItem {
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
  readonly payment_gateway: PaymentGatewayName;
  readonly gateway_environment: GatewayEnvironment;
  /** Canonical JSON (sorted keys): payment_gateway, gateway_environment and each item's delivery type, variant and options. */
  readonly metadata: string;
  readonly checkout_session_id: string | null;
  readonly checkout_url: string | null;
  readonly flagged_reason: string | null;
  readonly created_at: Date;
  readonly updated_at: Date;
}

export interface Payment {
  readonly id: string;
  readonly order_id: string;
  readonly gateway: PaymentGatewayName;
  readonly payment_id: string;
  readonly amount: number;
  readonly currency: string;
  readonly refunded_amount: number;
  readonly created_at: Date;
}

export class OrderNotFound extends DomainError {
  readonly code = "ORDER_NOT_FOUND";
  readonly category = "not_found";
  constructor() {
    super("The order does not exist.");
  }
}

/** The metadata spec 2.7 asks for: deterministic and normalized, the same bytes for the same checkout. */
export function orderMetadata(input: {
  payment_gateway: PaymentGatewayName;
  gateway_environment: GatewayEnvironment;
  items: readonly PricedItem[];
}) {
  return {
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
