import type { SimClock } from "../../clock.ts";
import { type CheckoutView, formatMoney } from "../checkout-page.ts";
import type { HostedCheckout } from "../checkout-routes.ts";
import type { FormObject } from "../form-body.ts";
import { newGatewayId } from "../ids.ts";
import type { OutgoingWebhook, WebhookDeliverer } from "../webhook-deliverer.ts";
import { createGatewayBBilling, type SessionRecord } from "./billing.ts";
import { createGatewayBCatalog } from "./catalog.ts";
import { StripeError } from "./errors.ts";
import { stripeEvent } from "./events.ts";
import { refundPayment } from "./refunds.ts";

export interface GatewayBSandboxDeps {
  readonly clock: SimClock;
  readonly deliverer: WebhookDeliverer;
  readonly webhookSecret: string;
  readonly publicUrl: string;
}

export type GatewayBSandbox = ReturnType<typeof createGatewayBSandbox>;

function viewOf({ session, input }: SessionRecord): CheckoutView {
  const trial = input.trial_period_days;
  return {
    gateway: "gateway_b",
    id: session.id,
    reference: session.client_reference_id ?? session.metadata.order_id ?? null,
    lines: input.lines.map(({ price, product_name, quantity }) => {
      const full = price.unit_amount * quantity;
      const recurring = price.recurring;
      const every =
        recurring &&
        (recurring.interval_count === 1 ? recurring.interval : `${recurring.interval_count} ${recurring.interval}s`);
      const note =
        every &&
        `then ${formatMoney(full, price.currency)} every ${every}${trial ? ` after a ${trial}-day trial` : ""}`;
      return { name: product_name, quantity, amount: recurring && trial ? 0 : full, note };
    }),
    total: session.amount_total,
    currency: session.currency,
    paid: session.status === "complete",
    successUrl: session.success_url?.replaceAll("{CHECKOUT_SESSION_ID}", session.id) ?? null,
    cancelUrl: session.cancel_url,
  };
}

/** The gateway_b (Stripe) sandbox: its objects, its hosted checkout and the webhooks they cause. */
export function createGatewayBSandbox(deps: GatewayBSandboxDeps) {
  const catalog = createGatewayBCatalog(deps.clock);
  const billing = createGatewayBBilling({
    clock: deps.clock,
    checkoutUrl: (id) => `${deps.publicUrl}/checkout/gateway_b/${id}`,
  });
  const paidEvents = new Map<string, OutgoingWebhook>();
  const now = () => Math.floor(deps.clock.now().getTime() / 1000);
  const event = (type: string, object: unknown) => stripeEvent(deps.webhookSecret, type, object, now());

  const checkout: HostedCheckout = {
    gateway: "gateway_b",
    view(id) {
      const record = billing.findSession(id);
      return record && viewOf(record);
    },
    async pay(id) {
      if (!billing.findSession(id)) return { outcome: "not_found" };
      const completed = billing.complete(id);
      if (!completed) return { outcome: "already_paid" };
      const paid = event("checkout.session.completed", completed);
      paidEvents.set(id, paid);
      return { outcome: "paid", delivery: await deps.deliverer.deliver(paid) };
    },
    async resend(id) {
      if (!billing.findSession(id)) return { outcome: "not_found" };
      const paid = paidEvents.get(id);
      return paid ? { outcome: "resent", delivery: await deps.deliverer.deliver(paid) } : { outcome: "not_paid" };
    },
  };

  return {
    catalog,
    billing,
    checkout,
    /** Refunds at once and reports `charge.refunded` in the background. */
    refund(form: FormObject) {
      const { refund, charge } = refundPayment(billing.payments, form, now());
      deps.deliverer.deliverInBackground(event("charge.refunded", charge));
      return refund;
    },
    cancel(id: string) {
      const { subscription, changed } = billing.cancel(id);
      if (changed) deps.deliverer.deliverInBackground(event("customer.subscription.deleted", subscription));
      return subscription;
    },
    /** `__sim` controls: the renewal or cancellation happens now and its delivery is awaited. */
    async renewNow(id: string) {
      const renewal = billing.renew(id);
      const { subscription, payment, amount, period } = renewal;
      const invoice = {
        id: renewal.invoice,
        object: "invoice",
        billing_reason: "subscription_cycle",
        status: "paid",
        paid: true,
        subscription: subscription.id,
        subscription_details: { metadata: subscription.metadata },
        amount_due: amount,
        amount_paid: amount,
        amount_remaining: 0,
        currency: subscription.currency,
        payment_intent: payment?.id ?? null,
        charge: payment?.charge ?? null,
        period_start: period.start,
        period_end: period.end,
        lines: {
          object: "list",
          data: renewal.lines.map((line) => ({
            id: newGatewayId("il"),
            object: "line_item",
            amount: line.price.unit_amount * line.quantity,
            currency: line.price.currency,
            quantity: line.quantity,
            price: line.price,
            period,
          })),
        },
        created: now(),
        livemode: false,
      };
      return { ...(await deps.deliverer.deliver(event("invoice.paid", invoice))), subscription };
    },
    async cancelNow(id: string) {
      const { subscription, changed } = billing.cancel(id);
      if (!changed) throw new StripeError(409, "invalid_request_error", `The subscription ${id} is already canceled.`);
      return { ...(await deps.deliverer.deliver(event("customer.subscription.deleted", subscription))), subscription };
    },
    clear() {
      catalog.clear();
      billing.clear();
      paidEvents.clear();
    },
  };
}
