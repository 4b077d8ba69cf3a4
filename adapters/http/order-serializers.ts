import type { OrderDetails, RefundRecord } from "../../application/checkout/ports.ts";
import type { Order, OrderItem, Payment } from "../../domain/orders/order.ts";

export function toOrderBody(order: Order) {
  return {
    id: order.id,
    customer_id: order.customer_id,
    status: order.status,
    currency: order.currency,
    subtotal: order.subtotal,
    total: order.total,
    due_today: order.due_today,
    payment_gateway: order.payment_gateway,
    gateway_environment: order.gateway_environment,
    metadata: JSON.parse(order.metadata) as unknown,
    checkout: order.checkout_session_id ? { session_id: order.checkout_session_id, url: order.checkout_url } : null,
    flagged_reason: order.flagged_reason,
    created_at: order.created_at.toISOString(),
    updated_at: order.updated_at.toISOString(),
  };
}

export function toOrderItemBody(item: OrderItem) {
  const { order_id: _, ...rest } = item;
  return rest;
}

const toPaymentBody = (payment: Payment) => ({ ...payment, created_at: payment.created_at.toISOString() });
const toRefundBody = (refund: RefundRecord) => ({ ...refund, created_at: refund.created_at.toISOString() });

export function toOrderDetailsBody(details: OrderDetails) {
  return {
    ...toOrderBody(details.order),
    items: details.items.map(toOrderItemBody),
    payments: details.payments.map(toPaymentBody),
    refunds: details.refunds.map(toRefundBody),
  };
}
