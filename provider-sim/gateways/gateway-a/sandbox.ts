import type { SimClock } from "../../clock.ts";
import { createHostedCheckout } from "../hosted-checkout.ts";
import type { WebhookDeliverer } from "../webhook-deliverer.ts";
import { createGatewayABilling } from "./billing.ts";
import { createGatewayACatalog } from "./catalog.ts";
import { gatewayACheckout } from "./checkout.ts";
import { createGatewayAControls } from "./controls.ts";
import { createGatewayACustomers } from "./customers.ts";
import { createGatewayADiscounts } from "./discounts.ts";
import { createGatewayAInvoices } from "./documents.ts";
import { PaddleError } from "./errors.ts";
import { paddleEvent } from "./events.ts";
import { asNotification } from "./notifications.ts";
import type { EventFactory } from "./period-end-events.ts";
import { createGatewayAPortal } from "./portal.ts";
import type { RefundInput, SubscriptionPatch } from "./requests.ts";
import type { PaddleTaxSettings } from "./transactions.ts";

export interface GatewayASandboxDeps {
  readonly clock: SimClock;
  readonly deliverer: WebhookDeliverer;
  readonly webhookSecret: string;
  readonly publicUrl: string;
}

export type GatewayASandbox = ReturnType<typeof createGatewayASandbox>;

const NO_TAX: PaddleTaxSettings = { rate: 0, default_tax_mode: "exclusive" };

/** The gateway_a (Paddle) sandbox: its objects, its hosted checkout and the webhooks they cause. */
export function createGatewayASandbox(deps: GatewayASandboxDeps) {
  let tax = NO_TAX;
  const catalog = createGatewayACatalog(deps.clock);
  const discounts = createGatewayADiscounts(deps.clock);
  const customers = createGatewayACustomers(deps.clock);
  const billing = createGatewayABilling({
    clock: deps.clock,
    catalog,
    customers,
    discounts,
    checkoutUrl: (id) => `${deps.publicUrl}/checkout/gateway_a/${id}`,
    tax: () => tax,
  });
  const event: EventFactory = (type, data) =>
    paddleEvent(deps.webhookSecret, type, asNotification(type, data), deps.clock.now());
  const hosted = createHostedCheckout(gatewayACheckout(billing, event), deps.deliverer);
  const invoices = createGatewayAInvoices({
    billing,
    clock: deps.clock,
    documentsUrl: `${deps.publicUrl}/documents/gateway_a`,
  });
  const controls = createGatewayAControls({ billing, deliverer: deps.deliverer, event, now: () => deps.clock.now() });
  /** Items changed as Paddle does: `subscription.updated`, then the change's transaction when it billed. */
  function changeItems(id: string, patch: Extract<SubscriptionPatch, { kind: "items" }>) {
    const { subscription, transaction } = billing.changeItems(id, patch);
    const paid = transaction
      ? [event("transaction.paid", transaction), event("transaction.completed", transaction)]
      : [];
    deps.deliverer.deliverInOrder([event("subscription.updated", subscription), ...paid]);
    return subscription;
  }
  const portal = createGatewayAPortal({
    billing,
    customers,
    clock: deps.clock,
    publicUrl: deps.publicUrl,
    recover: controls.recover,
    // The account's active prices of the subscription's product at another billing cycle.
    plansOf(id) {
      const subscription = billing.subscription(id);
      const item = subscription.items[0];
      if (!item) return [];
      return catalog
        .prices({ productIds: [item.price.product_id], status: ["active"] })
        .filter((price) => price.billing_cycle && price.billing_cycle.interval !== subscription.billing_cycle.interval)
        .map((price) => ({
          price: price.id,
          label: `${price.billing_cycle?.interval ?? "plan"}ly (${(Number(price.unit_price.amount) / 100).toFixed(2)} ${price.unit_price.currency_code})`,
        }));
    },
    // Paddle's portal prorates and bills at once.
    switchPlan(id, price) {
      const quantity = billing.subscription(id).items[0]?.quantity ?? 1;
      changeItems(id, {
        kind: "items",
        items: [{ price_id: price, quantity }],
        mode: "prorated_immediately",
        next_billed_at: null,
      });
    },
  });

  /** Paddle refuses any change to a canceled subscription with a 400 naming what was refused. */
  const refuseIfCanceled = (id: string, code: string, detail: string) => {
    if (billing.subscription(id).status === "canceled") throw new PaddleError(400, code, detail);
  };

  return {
    catalog,
    discounts,
    customers,
    billing,
    checkout: hosted.checkout,
    /** Invoice links (`GET /transactions/{id}/invoice`) and the pages they open. */
    invoices,
    /** The customer portal: sessions made through the API, and the pages their links open. */
    portal,
    ...controls,
    /** Refunds at once (the sandbox approves every adjustment) and reports it in the background. */
    refund(input: RefundInput) {
      const adjustment = billing.refund(input);
      deps.deliverer.deliverInBackground(event("adjustment.created", adjustment));
      return adjustment;
    },
    /** Now (`subscription.canceled`) or at the period end (`subscription.updated` with the scheduled change). */
    cancel(id: string, effective: "immediately" | "next_billing_period") {
      refuseIfCanceled(
        id,
        "subscription_is_canceled_action_invalid",
        "action can't be performed on canceled subscription",
      );
      const { subscription, changed } = billing.cancel(id, effective);
      if (changed) {
        const type = effective === "immediately" ? "subscription.canceled" : "subscription.updated";
        deps.deliverer.deliverInBackground(event(type, subscription));
      }
      return subscription;
    },
    /**
     * `PATCH /subscriptions/{id}` with items: `subscription.updated`, and the change's transaction
     * (`transaction.paid`, `transaction.completed`) when it billed at once.
     */
    changeItems,
    removeScheduledChange(id: string) {
      refuseIfCanceled(
        id,
        "subscription_update_when_canceled",
        "cannot update subscription, as subscription is canceled",
      );
      const { subscription, changed } = billing.removeScheduledChange(id);
      if (changed) deps.deliverer.deliverInBackground(event("subscription.updated", subscription));
      return subscription;
    },
    tax: () => tax,
    setTax(settings: PaddleTaxSettings) {
      tax = settings;
      return tax;
    },
    clear() {
      catalog.clear();
      customers.clear();
      billing.clear();
      hosted.clear();
      controls.clear();
      portal.portal.clear();
      tax = NO_TAX;
    },
  };
}
