import type { FulfillmentRecord } from "../../domain/fulfillment/fulfillment.ts";
import type { Order, OrderItem } from "../../domain/orders/order.ts";
import type { Payment } from "../../domain/payments/payment.ts";
import type { SubscriptionRecord } from "../fulfillment/subscription-ports.ts";

/** An order as outgoing events show it: ids and public fields, nothing from the gateway's secrets. */
export function orderEventData(order: Order): Record<string, unknown> {
  return {
    order_id: order.id,
    customer_id: order.customer_id,
    status: order.status,
    currency: order.currency,
    subtotal: order.subtotal,
    discount_code: order.discount_code,
    discount_total: order.discount_total,
    total: order.total,
    payment_gateway: order.payment_gateway,
    needs_attention: order.needs_attention,
    attention_reason: order.attention_reason,
    created_at: order.created_at.toISOString(),
    updated_at: order.updated_at.toISOString(),
  };
}

/** What was bought, item by item: the product, the variant and the price, never what a delivery holds. */
export function orderItemsEventData(items: readonly OrderItem[]): Record<string, unknown>[] {
  return items.map((item) => ({
    order_item_id: item.id,
    product_id: item.product_id,
    product_name: item.product_name,
    variant: item.variant,
    payment_type: item.payment_type,
    billing_interval: item.billing_interval,
    quantity: item.quantity,
    unit_price: item.unit_price,
    amount: item.amount,
    discount: item.discount,
    delivery_model: item.delivery_model,
  }));
}

/** A payment by the gateway's ids and its amounts. */
export function paymentEventData(payment: Payment): Record<string, unknown> {
  return {
    payment_id: payment.payment_id,
    gateway: payment.gateway,
    kind: payment.kind,
    amount: payment.amount,
    tax: payment.tax,
    discount: payment.discount,
    currency: payment.currency,
    refunded_amount: payment.refunded_amount,
  };
}

/**
 * A delivery as outgoing events show it: its state and where the customer finds it. The driver's
 * snapshot is left out, since it may hold a license key, a download token or provisioning details.
 */
export function fulfillmentEventData(record: FulfillmentRecord): Record<string, unknown> {
  return {
    fulfillment_id: record.id,
    order_id: record.order_id,
    order_item_id: record.order_item_id,
    product_id: record.product_id,
    customer_id: record.customer_id,
    driver: record.driver,
    status: record.status,
    external_reference_id: record.external_reference_id,
    external_workspace_url: record.external_workspace_url,
    external_status: record.external_status,
    attempts: record.attempts,
    last_error: record.last_error,
    created_at: record.created_at.toISOString(),
    updated_at: record.updated_at.toISOString(),
  };
}

const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);

/** A subscription as outgoing events show it: its ids, its state and its dates. */
export function subscriptionEventData(subscription: SubscriptionRecord): Record<string, unknown> {
  return {
    subscription_id: subscription.id,
    order_id: subscription.order_id,
    order_item_id: subscription.order_item_id,
    customer_id: subscription.customer_id,
    product_id: subscription.product_id,
    gateway: subscription.gateway,
    gateway_subscription_id: subscription.gateway_subscription_id,
    status: subscription.status,
    billing_interval: subscription.billing_interval,
    trial_ends_at: isoOrNull(subscription.trial_ends_at),
    current_period_end: isoOrNull(subscription.current_period_end),
    cancelled_at: isoOrNull(subscription.cancelled_at),
    cancel_at_period_end: subscription.cancel_at_period_end,
  };
}
