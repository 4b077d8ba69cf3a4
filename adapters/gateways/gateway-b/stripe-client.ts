import type { GatewayCatalog, GatewaySettingsSource, PaymentGateway } from "../../../application/payments/ports.ts";
import { UpstreamRejected } from "../../../application/shared/errors.ts";
import { signingEnvironment } from "../webhook-environments.ts";
import { checkoutSessionForm } from "./checkout-session-form.ts";
import { createStripeCatalog } from "./stripe-catalog.ts";
import { expireStripeSession } from "./stripe-checkout-expiry.ts";
import { testStripeConnection } from "./stripe-connection.ts";
import { deleteStripeCoupon, ensureStripeCoupon } from "./stripe-coupons.ts";
import { stripePaymentDocument } from "./stripe-documents.ts";
import { normalizeStripeEvent } from "./stripe-events.ts";
import { type StripeCall, stripeRequest } from "./stripe-http.ts";
import { resolveStripePayment } from "./stripe-payments.ts";
import { createStripePlanChanges } from "./stripe-plan-change.ts";
import { stripeBillingPortal } from "./stripe-portal.ts";
import { findStripeRefund } from "./stripe-refunds.ts";
import { readCheckoutSession, readRefund, readSubscription } from "./stripe-responses.ts";
import { verifyStripeSignature } from "./stripe-signature.ts";

const headerNamed = (headers: Readonly<Record<string, string | undefined>>, name: string) =>
  Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];

/**
 * gateway_b: the Stripe API subset of docs/gateway-wire-formats.md. Settings are read at every
 * call, so switching the active environment takes effect at once.
 */
export function createStripeGateway(deps: {
  settings: GatewaySettingsSource;
  now?: () => number;
}): PaymentGateway & GatewayCatalog {
  const now = deps.now ?? Date.now;
  const send = async (call: StripeCall) => stripeRequest(await deps.settings.resolve("gateway_b"), call);
  const subscriptionPath = (id: string) => `/v1/subscriptions/${encodeURIComponent(id)}`;
  const setCancelAtPeriodEnd = async (id: string, on: boolean) =>
    readSubscription(await send({ method: "POST", path: subscriptionPath(id), form: { cancel_at_period_end: on } }));
  const planChanges = createStripePlanChanges(send);

  return {
    name: "gateway_b",

    async createCheckoutSession(request) {
      const settings = await deps.settings.resolve("gateway_b");
      const coupon = request.discount
        ? await ensureStripeCoupon((call) => stripeRequest(settings, call), request.discount)
        : null;
      const body = await stripeRequest(settings, {
        method: "POST",
        path: "/v1/checkout/sessions",
        form: checkoutSessionForm(request, coupon),
        // One session per order: asked again (a lost answer), Stripe replays the session it made.
        idempotencyKey: `checkout-${request.order_id}`,
      });
      const session = readCheckoutSession(body);
      return {
        session_id: session.id,
        url: session.url,
        ...(settings.client_key === null ? {} : { client_key: settings.client_key }),
      };
    },

    expireCheckout: (sessionId) => expireStripeSession(send, sessionId),

    retireDiscount: (discountId) => deleteStripeCoupon(send, discountId),

    verifyWebhook(request) {
      const header = headerNamed(request.headers, "stripe-signature");
      return signingEnvironment(deps.settings, "gateway_b", ({ secrets, tolerance_seconds }) =>
        verifyStripeSignature(request.rawBody, header, secrets, tolerance_seconds, now()),
      );
    },

    normalizeWebhookPayload: normalizeStripeEvent,

    async refund(payment, amount, reference, options) {
      if (options?.lookUpFirst) {
        const made = await findStripeRefund(send, payment.payment_id, reference);
        if (made) return made;
      }
      const form = {
        payment_intent: payment.payment_id,
        amount: amount ?? undefined,
        metadata: { order_id: payment.order_id, refund_reference: reference },
      };
      // Derived from the marketplace's refund id: asked again, Stripe replays the refund it made.
      const idempotencyKey = `refund-${reference}`;
      return readRefund(await send({ method: "POST", path: "/v1/refunds", form, idempotencyKey }));
    },

    resolvePayment: (pointer) => resolveStripePayment(send, pointer),

    getSubscription: async (id) => readSubscription(await send({ method: "GET", path: subscriptionPath(id) })),

    cancelSubscription: async (id) => readSubscription(await send({ method: "DELETE", path: subscriptionPath(id) })),

    async scheduleCancellation(id) {
      try {
        return await setCancelAtPeriodEnd(id, true);
      } catch (error) {
        // Stripe refuses to set the cancellation of a subscription a schedule runs (a plan change
        // waiting for the period end, made here or in the dashboard): the schedule is let go, as
        // the subscription ends at the period end anyway, and the cancellation asked again.
        if (!(error instanceof UpstreamRejected && /subscription schedule/i.test(error.detail ?? ""))) throw error;
        await planChanges.releasePlanChange(id);
        return setCancelAtPeriodEnd(id, true);
      }
    },

    resumeSubscription: (id) => setCancelAtPeriodEnd(id, false),

    testConnection: () => testStripeConnection(deps.settings),

    paymentDocumentUrl: (payment) => stripePaymentDocument(send, payment),

    billingPortalUrl: (subscriptionId, returnUrl) => stripeBillingPortal(send, subscriptionId, returnUrl),

    ...planChanges,

    ...createStripeCatalog(send),
  };
}
