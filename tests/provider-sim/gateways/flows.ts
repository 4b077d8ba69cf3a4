import type { CheckoutLine, CheckoutSessionRequest } from "../../../application/payments/ports.ts";
import type { GatewaySim } from "./harness.ts";

/** One line of a marketplace checkout: a one-time POS Suite at 49.00 unless `overrides` say otherwise. */
export const aCheckoutLine = (overrides: Partial<CheckoutLine> = {}): CheckoutLine => ({
  order_item_id: "item_1",
  product_id: "mp_1",
  name: "POS Suite",
  variant: "regular",
  billing_interval: null,
  unit_amount: 4900,
  quantity: 1,
  trial_days: null,
  gateway_price_id: null,
  ...overrides,
});

/** What the marketplace asks a gateway adapter for when `orderId` checks out `lines`. */
export const aCheckoutRequest = (
  orderId: string,
  lines: CheckoutLine[],
  overrides: Partial<CheckoutSessionRequest> = {},
): CheckoutSessionRequest => ({
  order_id: orderId,
  currency: "USD",
  lines,
  customer: { id: "cust_1", email: "ada@example.com", name: "Ada" },
  success_url: "https://shop.test/ok",
  cancel_url: "https://shop.test/cancel",
  tax_behavior: "exclusive",
  ...overrides,
});

/** A gateway_a checkout transaction over one inline price. */
export async function aTransaction(
  sim: GatewaySim,
  options: { name?: string; amount?: string; monthly?: boolean; trialDays?: number; orderId?: string } = {},
) {
  const response = await sim.a("POST", "/transactions", {
    body: {
      items: [
        {
          price: {
            description: "Checkout line",
            product: { name: options.name ?? "POS Suite", tax_category: "standard" },
            unit_price: { amount: options.amount ?? "2900", currency_code: "USD" },
            billing_cycle: options.monthly ? { interval: "month", frequency: 1 } : null,
            trial_period: options.trialDays ? { interval: "day", frequency: options.trialDays } : null,
          },
          quantity: 1,
        },
      ],
      custom_data: { order_id: options.orderId ?? "ord_a1" },
      checkout: { url: null },
    },
  });
  return response.body.data;
}

/** A gateway_b checkout session over one price_data line. */
export async function aSession(
  sim: GatewaySim,
  options: { name?: string; monthly?: boolean; trialDays?: number; orderId?: string; successUrl?: string } = {},
) {
  const orderId = options.orderId ?? "ord_b1";
  const response = await sim.b("POST", "/checkout/sessions", {
    mode: options.monthly ? "subscription" : "payment",
    client_reference_id: orderId,
    "metadata[order_id]": orderId,
    customer_email: "ada@example.com",
    ...(options.successUrl ? { success_url: options.successUrl } : {}),
    cancel_url: "https://shop.test/cancel",
    "line_items[0][quantity]": 1,
    "line_items[0][price_data][currency]": "usd",
    "line_items[0][price_data][unit_amount]": 2900,
    "line_items[0][price_data][product_data][name]": options.name ?? "POS Suite",
    ...(options.monthly ? { "line_items[0][price_data][recurring][interval]": "month" } : {}),
    ...(options.trialDays ? { "subscription_data[trial_period_days]": options.trialDays } : {}),
    ...(options.monthly
      ? { "subscription_data[metadata][order_id]": orderId }
      : { "payment_intent_data[metadata][order_id]": orderId }),
  });
  return response.body;
}
