import type { SimClock } from "../../clock.ts";
import type { FormObject } from "../form-body.ts";
import { createHostedCheckout } from "../hosted-checkout.ts";
import type { WebhookDeliverer } from "../webhook-deliverer.ts";
import { createGatewayBBilling } from "./billing.ts";
import { createGatewayBCatalog } from "./catalog.ts";
import { gatewayBCheckout } from "./checkout.ts";
import { createGatewayBControls } from "./controls.ts";
import { createDisputeBook } from "./disputes.ts";
import { gatewayBDocuments } from "./documents.ts";
import { stripeEvent } from "./events.ts";
import { createStripeIdempotency } from "./idempotency.ts";
import { optionalBoolean, rejectUnknown } from "./params.ts";
import type { StripeRefund } from "./payment-model.ts";
import { chargeObject } from "./payments.ts";
import { type EventFactory, subscriptionUpdated } from "./period-end-events.ts";
import { createGatewayBPortal } from "./portal.ts";
import { listRefunds, refundPayment } from "./refunds.ts";

export interface GatewayBSandboxDeps {
  readonly clock: SimClock;
  readonly deliverer: WebhookDeliverer;
  readonly webhookSecret: string;
  readonly publicUrl: string;
}

export type GatewayBSandbox = ReturnType<typeof createGatewayBSandbox>;

/** The gateway_b (Stripe) sandbox: its objects, its hosted checkout and the webhooks they cause. */
export function createGatewayBSandbox(deps: GatewayBSandboxDeps) {
  let taxRate = 0;
  const catalog = createGatewayBCatalog(deps.clock);
  const billing = createGatewayBBilling({
    clock: deps.clock,
    checkoutUrl: (id) => `${deps.publicUrl}/checkout/gateway_b/${id}`,
    documentsUrl: `${deps.publicUrl}/documents/gateway_b`,
    taxRate: () => taxRate,
  });
  const disputes = createDisputeBook(billing.ledger);
  const now = () => Math.floor(deps.clock.now().getTime() / 1000);
  const event: EventFactory = (type, object, previous) =>
    stripeEvent(deps.webhookSecret, type, object, now(), previous);
  const hosted = createHostedCheckout(gatewayBCheckout(billing, event), deps.deliverer);
  const controls = createGatewayBControls({ billing, disputes, deliverer: deps.deliverer, event, now });
  const portal = createGatewayBPortal({
    billing,
    clock: deps.clock,
    publicUrl: deps.publicUrl,
    recover: controls.recover,
  });
  const idempotency = createStripeIdempotency(() => deps.clock.now().getTime());
  let refunds: StripeRefund[] = [];

  return {
    catalog,
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
    /** `POST /v1/subscriptions/{id}`: the sandbox updates `cancel_at_period_end` only. */
    updateSubscription(id: string, form: FormObject) {
      rejectUnknown(form, ["cancel_at_period_end"]);
      const on = optionalBoolean(form.cancel_at_period_end, "cancel_at_period_end");
      if (on === null) return billing.subscriptions.subscription(id);
      const { previous, subscription } = billing.subscriptions.setCancelAtPeriodEnd(id, on);
      deps.deliverer.deliverInOrder(subscriptionUpdated(event, previous, subscription));
      return subscription;
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
