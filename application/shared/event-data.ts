import type { Order } from "../../domain/orders/order.ts";

/** An order as outgoing events show it: ids and public fields, nothing from the gateway's secrets. */
export function orderEventData(order: Order): Record<string, unknown> {
  return {
    order_id: order.id,
    customer_id: order.customer_id,
    status: order.status,
    currency: order.currency,
    subtotal: order.subtotal,
    total: order.total,
    payment_gateway: order.payment_gateway,
    needs_attention: order.needs_attention,
    attention_reason: order.attention_reason,
    created_at: order.created_at.toISOString(),
    updated_at: order.updated_at.toISOString(),
  };
}
