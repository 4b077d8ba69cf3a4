import type { Static } from "elysia";
import type { OrderDetails, OrderItemPlan, RefundRecord } from "../../application/checkout/ports.ts";
import type { Order, OrderItem } from "../../domain/orders/order.ts";
import type { Dispute, Payment } from "../../domain/payments/payment.ts";
import type { AdminOrderDetailsSchema, AdminOrderSchema, OrderSchema } from "./order-schemas.ts";

export function toOrderBody(order: Order): Static<typeof OrderSchema> {
  return {
    id: order.id,
    customer_id: order.customer_id,
    status: order.status,
    currency: order.currency,
    subtotal: order.subtotal,
    total: order.total,
    due_today: order.due_today,
    discount_code: order.discount_code,
    discount_total: order.discount_total,
    discount_payments: order.discount_id === null ? null : order.discount_payments,
    payment_gateway: order.payment_gateway,
    gateway_environment: order.gateway_environment,
    metadata: JSON.parse(order.metadata) as Record<string, unknown>,
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
const toDisputeBody = (dispute: Dispute) => ({
  ...dispute,
  created_at: dispute.created_at.toISOString(),
  updated_at: dispute.updated_at.toISOString(),
});

const toPlanBody = (plan: OrderItemPlan) => ({
  ...plan,
  current_period_end: plan.current_period_end?.toISOString() ?? null,
  pending_at: plan.pending_at?.toISOString() ?? null,
});

export function toOrderDetailsBody(details: OrderDetails) {
  return {
    ...toOrderBody(details.order),
    items: details.items.map(toOrderItemBody),
    payments: details.payments.map(toPaymentBody),
    refunds: details.refunds.map(toRefundBody),
    subscriptions: details.subscriptions.map(toPlanBody),
  };
}

/** What an admin sees beyond the customer: whether the order waits for a person and why, and the disputes. */
export function toAdminOrderBody(order: Order): Static<typeof AdminOrderSchema> {
  return {
    ...toOrderBody(order),
    needs_attention: order.needs_attention,
    attention_reason: order.attention_reason,
    tax_behavior: order.tax_behavior,
  };
}

export type AdminOrderDetailsBody = Static<typeof AdminOrderDetailsSchema>;

export function toAdminOrderDetailsBody(details: OrderDetails): AdminOrderDetailsBody {
  return {
    ...toOrderDetailsBody(details),
    ...toAdminOrderBody(details.order),
    disputes: details.disputes.map(toDisputeBody),
  };
}
