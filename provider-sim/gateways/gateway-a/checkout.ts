import { type CheckoutPageLine, type CheckoutView, formatMoney } from "../checkout-page.ts";
import type { HostedCheckout } from "../checkout-routes.ts";
import type { OutgoingWebhook, WebhookDeliverer } from "../webhook-deliverer.ts";
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
    successUrl: null,
    cancelUrl: null,
  };
}

/** The hosted page of a checkout transaction; paying awaits `transaction.completed`. */
export function createGatewayACheckout(deps: {
  readonly billing: GatewayABilling;
  readonly deliverer: WebhookDeliverer;
  readonly event: EventFactory;
}): { readonly checkout: HostedCheckout; clear(): void } {
  const { billing, deliverer, event } = deps;
  const paidEvents = new Map<string, OutgoingWebhook>();
  const checkout: HostedCheckout = {
    gateway: "gateway_a",
    view(id) {
      const transaction = billing.findTransaction(id);
      return transaction && transaction.origin !== "subscription_recurring" ? viewOf(transaction) : undefined;
    },
    async pay(id) {
      if (!checkout.view(id)) return { outcome: "not_found" };
      const completed = billing.complete(id);
      if (!completed) return { outcome: "already_paid" };
      const paid = event("transaction.completed", completed.transaction);
      paidEvents.set(id, paid);
      return { outcome: "paid", delivery: await deliverer.deliver(paid) };
    },
    async resend(id) {
      if (!checkout.view(id)) return { outcome: "not_found" };
      const paid = paidEvents.get(id);
      return paid ? { outcome: "resent", delivery: await deliverer.deliver(paid) } : { outcome: "not_paid" };
    },
  };
  return { checkout, clear: () => paidEvents.clear() };
}
