import type { CheckoutLine, CheckoutSessionRequest } from "../../../application/payments/ports.ts";
import type { BillingInterval } from "../../../domain/catalog/pricing.ts";
import type { TaxBehavior } from "../../../domain/payments/payment.ts";

const CYCLES: Readonly<Record<BillingInterval, "month" | "year">> = { monthly: "month", yearly: "year" };

export function paddleBillingCycle(interval: BillingInterval | null) {
  return interval === null ? null : { interval: CYCLES[interval], frequency: 1 };
}

/** Paddle allows a trial only on a recurring price. */
export function paddleTrialPeriod(interval: BillingInterval | null, trialDays: number | null) {
  return interval !== null && trialDays !== null && trialDays > 0 ? { interval: "day", frequency: trialDays } : null;
}

/** Paddle's `tax_mode`: `external` adds tax on top of the price, `internal` holds it in the price. */
export const paddleTaxMode = (behavior: TaxBehavior) => (behavior === "inclusive" ? "internal" : "external");

function transactionItem(line: CheckoutLine, currency: string, taxBehavior: TaxBehavior) {
  if (line.gateway_price_id !== null) return { price_id: line.gateway_price_id, quantity: line.quantity };
  return {
    price: {
      description: `${line.name} (${line.variant})`,
      name: line.name,
      product: { name: line.name, tax_category: "standard" },
      unit_price: { amount: String(line.unit_amount), currency_code: currency },
      tax_mode: paddleTaxMode(taxBehavior),
      billing_cycle: paddleBillingCycle(line.billing_interval),
      trial_period: paddleTrialPeriod(line.billing_interval, line.trial_days),
    },
    quantity: line.quantity,
  };
}

/**
 * `POST /transactions` for a checkout: synced catalog prices by id, anything else as an inline
 * non-catalog price; the buyer as the Paddle customer `customerId`. `checkout.url: null` asks
 * Paddle for the default payment link.
 */
export function paddleTransactionBody(request: CheckoutSessionRequest, customerId: string, discountId: string | null) {
  const currency = request.currency.toUpperCase();
  return {
    items: request.lines.map((line) => transactionItem(line, currency, request.tax_behavior)),
    // Catalog prices carry their own currency; the transaction's must be the order's.
    currency_code: currency,
    custom_data: { order_id: request.order_id },
    customer_id: customerId,
    // The discount code's Paddle discount, on the whole transaction (and the subscription it starts).
    ...(discountId === null ? {} : { discount_id: discountId }),
    checkout: { url: null },
  };
}

export function paddleRefundBody(
  transactionId: string,
  orderId: string,
  partial: { readonly itemId: string; readonly amount: number } | null,
) {
  const reason = `Refund for order ${orderId}`;
  if (partial === null) return { action: "refund", transaction_id: transactionId, reason, type: "full" };
  return {
    action: "refund",
    transaction_id: transactionId,
    reason,
    type: "partial",
    items: [{ item_id: partial.itemId, type: "partial", amount: String(partial.amount) }],
  };
}
