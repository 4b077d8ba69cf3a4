import type { SimClock } from "../../clock.ts";
import type { FormObject } from "../form-body.ts";
import { createHostedCheckout } from "../hosted-checkout.ts";
import type { WebhookDeliverer } from "../webhook-deliverer.ts";
import { createGatewayBBilling } from "./billing.ts";
import { createGatewayBCatalog } from "./catalog.ts";
import { gatewayBCheckout } from "./checkout.ts";
import { createGatewayBControls } from "./controls.ts";
import { createGatewayBCoupons } from "./coupons.ts";
import { createDisputeBook } from "./disputes.ts";
import { gatewayBDocuments } from "./documents.ts";
import { StripeError } from "./errors.ts";
import { stripeEvent } from "./events.ts";
import { createStripeIdempotency } from "./idempotency.ts";
import { oneOf, optionalBoolean, optionalHash, optionalString, rejectUnknown, requiredString } from "./params.ts";
import type { StripeRefund } from "./payment-model.ts";
import { chargeObject } from "./payments.ts";
import { type EventFactory, subscriptionUpdated } from "./period-end-events.ts";
import { PRORATION_BEHAVIORS, type PriceChange, type ProrationBehavior, readPriceChange } from "./plan-changes.ts";
import { createGatewayBPortal } from "./portal.ts";
import { listRefunds, refundPayment } from "./refunds.ts";

export interface GatewayBSandboxDeps {
  readonly clock: SimClock;
  readonly deliverer: WebhookDeliverer;
  readonly webhookSecret: string;
  readonly publicUrl: string;
}

export type GatewayBSandbox = ReturnType<typeof createGatewayBSandbox>;

const PAYMENT_BEHAVIORS = [
  "allow_incomplete",
  "default_incomplete",
  "error_if_incomplete",
  "pending_if_incomplete",
] as const;

/** The gateway_b (Stripe) sandbox: its objects, its hosted checkout and the webhooks they cause. */
export function createGatewayBSandbox(deps: GatewayBSandboxDeps) {
  let taxRate = 0;
  const catalog = createGatewayBCatalog(deps.clock);
  const coupons = createGatewayBCoupons(deps.clock);
  const billing = createGatewayBBilling({
    clock: deps.clock,
    checkoutUrl: (id) => `${deps.publicUrl}/checkout/gateway_b/${id}`,
    documentsUrl: `${deps.publicUrl}/documents/gateway_b`,
    taxRate: () => taxRate,
    catalog,
    redeem: coupons.redeem,
  });
  const disputes = createDisputeBook(billing.ledger);
  const now = () => Math.floor(deps.clock.now().getTime() / 1000);
  const event: EventFactory = (type, object, previous) =>
    stripeEvent(deps.webhookSecret, type, object, now(), previous);
  const hosted = createHostedCheckout(gatewayBCheckout(billing, event), deps.deliverer);
  const controls = createGatewayBControls({ billing, disputes, deliverer: deps.deliverer, event, now });
  /** A price change billed as `behavior` says: `customer.subscription.updated`, then its invoice paid. */
  function changePrice(id: string, change: PriceChange, behavior: ProrationBehavior) {
    const step = billing.subscriptions.changePrice(id, change, behavior);
    const paid = step.invoice ? [event("invoice.paid", step.invoice)] : [];
    const invoicePayment = step.invoicePayment ? [event("invoice_payment.paid", step.invoicePayment)] : [];
    deps.deliverer.deliverInOrder([
      ...subscriptionUpdated(event, step.previous, step.subscription),
      ...paid,
      ...invoicePayment,
    ]);
    return step.subscription;
  }
  /** The account's active recurring prices of the subscription's product at another interval. */
  function plansOf(id: string) {
    const item = billing.subscriptions.subscription(id).items.data[0];
    if (!item) return [];
    return catalog
      .pricesOf(item.price.product)
      .filter((price) => price.active && price.recurring && price.recurring.interval !== item.price.recurring?.interval)
      .map((price) => ({
        price: price.id,
        label: `${price.nickname ?? price.recurring?.interval ?? "plan"} (${(price.unit_amount / 100).toFixed(2)} ${price.currency.toUpperCase()})`,
      }));
  }
  const portal = createGatewayBPortal({
    billing,
    clock: deps.clock,
    publicUrl: deps.publicUrl,
    recover: controls.recover,
    plansOf,
    // Stripe's portal switches at once with prorations invoiced now.
    switchPlan(id, priceId) {
      const current = billing.subscriptions.subscription(id);
      const item = current.items.data[0];
      if (!item) return;
      const price = catalog.price(priceId);
      const productName = catalog.product(price.product).name;
      changePrice(id, { item: item.id, price, productName, quantity: item.quantity }, "always_invoice");
    },
  });
  const idempotency = createStripeIdempotency(() => deps.clock.now().getTime());
  let refunds: StripeRefund[] = [];

  return {
    catalog,
    coupons,
    billing,
    disputes,
    checkout: hosted.checkout,
    /** The hosted invoice and receipt pages its objects link to. */
    documents: gatewayBDocuments(billing),
    /** The customer portal: sessions made through the API, and the pages their links open. */
    portal,
    /** Wraps the API's handler: Stripe's `Idempotency-Key` on every POST. */
    idempotent: idempotency.wrap,
    ...controls,
    /** Refunds at once and reports `charge.refunded`, then `refund.created`, in the background. */
    refund(form: FormObject) {
      const { refund, payment } = refundPayment(billing.ledger, form, now());
      refunds = [...refunds, refund];
      deps.deliverer.deliverInOrder([event("charge.refunded", chargeObject(payment)), event("refund.created", refund)]);
      return refund;
    },
    listRefunds: (query: Readonly<Record<string, string | undefined>>) => listRefunds(refunds, query),
    /**
     * `POST /v1/subscriptions/{id}`: `cancel_at_period_end`, or `items` with `proration_behavior`
     * (a plan change: `customer.subscription.updated`, then the change's invoice paid).
     * `payment_behavior` is taken; the sandbox's card always pays.
     */
    updateSubscription(id: string, form: FormObject) {
      rejectUnknown(form, ["cancel_at_period_end", "items", "proration_behavior", "payment_behavior"]);
      if (form.items !== undefined) {
        const current = billing.subscriptions.subscription(id);
        const change = readPriceChange(form.items, "items", current, catalog);
        const behavior =
          form.proration_behavior === undefined
            ? "create_prorations"
            : oneOf(form.proration_behavior, "proration_behavior", PRORATION_BEHAVIORS);
        if (form.payment_behavior !== undefined) {
          oneOf(form.payment_behavior, "payment_behavior", PAYMENT_BEHAVIORS);
        }
        return changePrice(id, change, behavior);
      }
      const on = optionalBoolean(form.cancel_at_period_end, "cancel_at_period_end");
      if (on === null) return billing.subscriptions.subscription(id);
      const { previous, subscription } = billing.subscriptions.setCancelAtPeriodEnd(id, on);
      deps.deliverer.deliverInOrder(subscriptionUpdated(event, previous, subscription));
      return subscription;
    },
    /**
     * `POST /v1/invoices/create_preview`: a price change of a subscription
     * (`subscription_details[items]`, `[proration_behavior]`), or the next phase of a schedule
     * about to be made for a customer (`schedule_details[phases]`).
     */
    previewInvoice(form: FormObject) {
      rejectUnknown(form, ["subscription", "subscription_details", "customer", "schedule_details"]);
      const subscriptionId = optionalString(form.subscription, "subscription");
      if (subscriptionId !== null) {
        const details = optionalHash(form.subscription_details, "subscription_details") ?? {};
        rejectUnknown(details, ["items", "proration_behavior"]);
        const current = billing.subscriptions.subscription(subscriptionId);
        const change = readPriceChange(details.items, "subscription_details[items]", current, catalog);
        const behavior =
          details.proration_behavior === undefined
            ? "create_prorations"
            : oneOf(details.proration_behavior, "subscription_details[proration_behavior]", PRORATION_BEHAVIORS);
        return billing.subscriptions.previewChange(subscriptionId, change, behavior);
      }
      const customer = requiredString(form.customer, "customer");
      const details = optionalHash(form.schedule_details, "schedule_details");
      if (!details) throw StripeError.missing("schedule_details");
      return billing.subscriptions.previewPhases(customer, details);
    },
    createSchedule(form: FormObject) {
      rejectUnknown(form, ["from_subscription"]);
      return billing.subscriptions.createSchedule(requiredString(form.from_subscription, "from_subscription")).schedule;
    },
    updateSchedule: (id: string, form: FormObject) => billing.subscriptions.updateSchedule(id, form),
    releaseSchedule(id: string) {
      return billing.subscriptions.releaseSchedule(id).schedule;
    },
    cancel(id: string) {
      const { subscription, changed } = billing.subscriptions.cancel(id);
      if (changed) deps.deliverer.deliverInBackground(event("customer.subscription.deleted", subscription));
      return subscription;
    },
    tax: () => ({ rate: taxRate }),
    setTax(settings: { rate: number }) {
      taxRate = settings.rate;
      return { rate: taxRate };
    },
    clear() {
      catalog.clear();
      billing.clear();
      disputes.clear();
      hosted.clear();
      controls.clear();
      portal.portal.clear();
      idempotency.clear();
      taxRate = 0;
      refunds = [];
    },
  };
}
