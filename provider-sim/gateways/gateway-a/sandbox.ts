import type { SimClock } from "../../clock.ts";
import { type CheckoutPageLine, type CheckoutView, formatMoney } from "../checkout-page.ts";
import type { HostedCheckout } from "../checkout-routes.ts";
import type { OutgoingWebhook, WebhookDeliverer } from "../webhook-deliverer.ts";
import { createGatewayABilling } from "./billing.ts";
import { createGatewayACatalog } from "./catalog.ts";
import { PaddleError } from "./errors.ts";
import { paddleEvent } from "./events.ts";
import type { Cycle, PaddleLineItem, PaddlePrice, PaddleTransaction } from "./model.ts";
import type { RefundInput } from "./requests.ts";

export interface GatewayASandboxDeps {
  readonly clock: SimClock;
  readonly deliverer: WebhookDeliverer;
  readonly webhookSecret: string;
  readonly publicUrl: string;
}

export type GatewayASandbox = ReturnType<typeof createGatewayASandbox>;

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

/** The gateway_a (Paddle) sandbox: its objects, its hosted checkout and the webhooks they cause. */
export function createGatewayASandbox(deps: GatewayASandboxDeps) {
  const catalog = createGatewayACatalog(deps.clock);
  const billing = createGatewayABilling({
    clock: deps.clock,
    catalog,
    checkoutUrl: (id) => `${deps.publicUrl}/checkout/gateway_a/${id}`,
  });
  const paidEvents = new Map<string, OutgoingWebhook>();
  const event = (type: string, data: unknown) => paddleEvent(deps.webhookSecret, type, data, deps.clock.now());

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
      return { outcome: "paid", delivery: await deps.deliverer.deliver(paid) };
    },
    async resend(id) {
      if (!checkout.view(id)) return { outcome: "not_found" };
      const paid = paidEvents.get(id);
      return paid ? { outcome: "resent", delivery: await deps.deliverer.deliver(paid) } : { outcome: "not_paid" };
    },
  };

  return {
    catalog,
    billing,
    checkout,
    /** Refunds at once (the sandbox approves every adjustment) and reports it in the background. */
    refund(input: RefundInput) {
      const adjustment = billing.refund(input);
      deps.deliverer.deliverInBackground(event("adjustment.created", adjustment));
      return adjustment;
    },
    cancel(id: string, effective: "immediately" | "next_billing_period") {
      const { subscription, changed } = billing.cancel(id, effective);
      if (changed) deps.deliverer.deliverInBackground(event("subscription.canceled", subscription));
      return subscription;
    },
    /** `__sim` controls: the renewal or cancellation happens now and its delivery is awaited. */
    async renewNow(id: string) {
      const { transaction, subscription } = billing.renew(id);
      return { ...(await deps.deliverer.deliver(event("transaction.completed", transaction))), subscription };
    },
    async cancelNow(id: string) {
      const { subscription, changed } = billing.cancel(id, "immediately");
      if (!changed) throw PaddleError.conflict(`${id} is already canceled.`);
      return { ...(await deps.deliverer.deliver(event("subscription.canceled", subscription))), subscription };
    },
    clear() {
      catalog.clear();
      billing.clear();
      paidEvents.clear();
    },
  };
}
