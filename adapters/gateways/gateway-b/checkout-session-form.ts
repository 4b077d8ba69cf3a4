import type { CheckoutLine, CheckoutSessionRequest } from "../../../application/payments/ports.ts";
import type { BillingInterval } from "../../../domain/catalog/pricing.ts";
import type { TaxBehavior } from "../../../domain/payments/payment.ts";
import type { FormFields } from "./form-encoding.ts";

export const STRIPE_INTERVALS: Readonly<Record<BillingInterval, "month" | "year">> = {
  monthly: "month",
  yearly: "year",
};

function lineItem(line: CheckoutLine, currency: string, taxBehavior: TaxBehavior): FormFields {
  if (line.gateway_price_id !== null) return { price: line.gateway_price_id, quantity: line.quantity };
  return {
    price_data: {
      currency,
      unit_amount: line.unit_amount,
      tax_behavior: taxBehavior,
      product_data: { name: line.name },
      recurring: line.billing_interval === null ? undefined : { interval: STRIPE_INTERVALS[line.billing_interval] },
    },
    quantity: line.quantity,
  };
}

/**
 * The `POST /v1/checkout/sessions` form: a subscription session as soon as one line recurs (one-time
 * lines then join the first invoice), the order id on the session and on the subscription, and the
 * longest trial among the recurring lines, since Stripe allows one trial per subscription.
 */
export function checkoutSessionForm(request: CheckoutSessionRequest, coupon: string | null = null): FormFields {
  const recurring = request.lines.filter((line) => line.billing_interval !== null);
  const trialDays = Math.max(0, ...recurring.map((line) => line.trial_days ?? 0));
  const currency = request.currency.toLowerCase();
  return {
    mode: recurring.length > 0 ? "subscription" : "payment",
    client_reference_id: request.order_id,
    customer_email: request.customer.email,
    success_url: request.success_url,
    cancel_url: request.cancel_url,
    metadata: { order_id: request.order_id },
    line_items: request.lines.map((line) => lineItem(line, currency, request.tax_behavior)),
    // The discount code's coupon, on the whole session (and so on the subscription it starts).
    discounts: coupon === null ? undefined : [{ coupon }],
    // Charges and refunds of a one-time payment carry the order id too, so refund events can name it.
    payment_intent_data: recurring.length === 0 ? { metadata: { order_id: request.order_id } } : undefined,
    subscription_data:
      recurring.length === 0
        ? undefined
        : {
            trial_period_days: trialDays > 0 ? trialDays : undefined,
            metadata: { order_id: request.order_id },
          },
  };
}
