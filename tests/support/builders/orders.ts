import type { Order, OrderItem } from "../../../domain/orders/order.ts";

/** A paid USD order for gateway_b's sandbox, tax-exclusive, 49.00 due in full today. */
export function aPaidOrder(overrides: Partial<Order> = {}): Order {
  const created = new Date(Date.UTC(2026, 0, 1));
  return {
    id: crypto.randomUUID(),
    customer_id: crypto.randomUUID(),
    status: "paid",
    currency: "USD",
    subtotal: 4900,
    total: 4900,
    due_today: 4900,
    discount_id: null,
    discount_code: null,
    discount_total: 0,
    discount_payments: null,
    discount_renewal: 0,
    payment_gateway: "gateway_b",
    gateway_environment: "sandbox",
    metadata: "{}",
    checkout_session_id: null,
    checkout_url: null,
    flagged_reason: null,
    needs_attention: false,
    attention_reason: null,
    tax_behavior: "exclusive",
    created_at: created,
    updated_at: created,
    ...overrides,
  };
}

/** One regular license of the order, bought once, delivered by `license_download`. */
export function anOrderItem(order: Order, overrides: Partial<OrderItem> = {}): OrderItem {
  return {
    id: crypto.randomUUID(),
    order_id: order.id,
    product_id: crypto.randomUUID(),
    product_name: "Editor",
    variant: "regular",
    payment_type: "one_time",
    license_type: "regular",
    billing_interval: null,
    unit_price: order.due_today,
    quantity: 1,
    amount: order.due_today,
    trial_days: null,
    due_today: order.due_today,
    discount: 0,
    delivery_model: "self_hosted_license",
    fulfillment_driver: "license_download",
    options: {},
    ...overrides,
  };
}
