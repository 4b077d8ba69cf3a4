import { type CheckoutPageLine, type CheckoutView, formatMoney } from "../checkout-page.ts";
import type { CheckoutSource } from "../hosted-checkout.ts";
import type { GatewayABilling } from "./billing.ts";
import type { Cycle, PaddlePrice } from "./model.ts";
import type { EventFactory } from "./period-end-events.ts";
import type { PaddleLineItem, PaddleTransaction } from "./transaction-model.ts";

const every = (cycle: Cycle) => (cycle.frequency === 1 ? cycle.interval : `${cycle.frequency} ${cycle.interval}s`);

function pageLine(line: PaddleLineItem, price: PaddlePrice): CheckoutPageLine {
  const cycle = price.billing_cycle;
  const recurring = cycle
    ? `then ${formatMoney(Number(price.unit_price.amount) * line.quantity, price.unit_price.currency_code)} every ${every(cycle)}`
    : null;
  const trial =
    cycle && price.trial_period ? ` after a ${price.trial_period.frequency}-${price.trial_period.interval} trial` : "";
  return {
    name: line.product.name,
    quantity: line.quantity,
    amount: Number(line.totals.total),
    note: recurring && `${recurring}${trial}`,
  };
}

function viewOf(transaction: PaddleTransaction): CheckoutView {
  const orderId = transaction.custom_data?.order_id;
  return {
    gateway: "gateway_a",
    id: transaction.id,
    reference: typeof orderId === "string" ? orderId : null,
    lines: transaction.details.line_items.map((line, i) => pageLine(line, transaction.items[i]?.price as PaddlePrice)),
    total: Number(transaction.details.totals.grand_total),
    currency: transaction.currency_code,
    paid: transaction.status === "completed",
    expired: transaction.status === "canceled",
    successUrl: null,
    cancelUrl: null,
  };
}

/** The hosted page of a checkout transaction; paying awaits `transaction.completed`. */
export function gatewayACheckout(billing: GatewayABilling, event: EventFactory): CheckoutSource {
  return {
    gateway: "gateway_a",
    view(id) {
      const transaction = billing.findTransaction(id);
      return transaction && transaction.origin !== "subscription_recurring" ? viewOf(transaction) : undefined;
    },
    complete(id) {
      const completed = billing.complete(id);
      return completed && { paid: event("transaction.completed", completed.transaction) };
    },
  };
}
