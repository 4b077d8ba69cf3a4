import type {
  GatewayCatalog,
  GatewayDiscountRefs,
  GatewaySettingsSource,
  PaymentGateway,
} from "../../../application/payments/ports.ts";
import { UpstreamBadResponse } from "../../../application/shared/errors.ts";
import type { Mutex } from "../../../application/shared/ports.ts";
import { createInProcessMutex } from "../../signals/in-process-mutex.ts";
import { signingEnvironment } from "../webhook-environments.ts";
import { createPaddleCatalog } from "./paddle-catalog.ts";
import { cancelPaddleTransaction } from "./paddle-checkout-expiry.ts";
import { testPaddleConnection } from "./paddle-connection.ts";
import { paddleCustomerFor } from "./paddle-customers.ts";
import { archivePaddleDiscounts, discountRefsInMemory, ensurePaddleDiscount } from "./paddle-discounts.ts";
import { paddlePaymentDocument } from "./paddle-documents.ts";
import { normalizePaddleEvent } from "./paddle-events.ts";
import { type PaddleCall, sendPaddle } from "./paddle-http.ts";
import { readCheckoutTransaction, readPaddleSubscription } from "./paddle-payment-schemas.ts";
import { createPaddlePlanChanges } from "./paddle-plan-change.ts";
import { paddleBillingPortal } from "./paddle-portal.ts";
import { refundAtPaddle } from "./paddle-refunds.ts";
import { paddleTransactionBody } from "./paddle-request-bodies.ts";
import { verifyPaddleSignature } from "./paddle-signature.ts";

function headerValue(headers: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

/**
 * gateway_a over the Paddle Billing API (docs/gateway-wire-formats.md). Settings are resolved at
 * every call, so switching the active environment takes effect at once.
 */
export function createPaddleGateway(deps: {
  settings: GatewaySettingsSource;
  /**
   * Where the ids Paddle gives discount codes are kept, per environment; without it, in this
   * process only (each is still found again at Paddle by its `custom_data`).
   */
  discountRefs?: GatewayDiscountRefs;
  /** One maker of a code's Paddle discount at a time, across instances (Paddle has no idempotency keys). */
  mutex?: Mutex;
  now?: () => number;
}): PaymentGateway & GatewayCatalog {
  const now = deps.now ?? Date.now;
  const discountRefs: GatewayDiscountRefs = deps.discountRefs ?? discountRefsInMemory();
  const mutex: Mutex = deps.mutex ?? createInProcessMutex();
  const send = async (call: PaddleCall) => sendPaddle(await deps.settings.resolve("gateway_a"), call);
  const subscriptionPath = (id: string) => `/subscriptions/${encodeURIComponent(id)}`;
  const cancel = async (id: string, effective_from: "immediately" | "next_billing_period") => {
    const { data } = await send({ method: "POST", target: `${subscriptionPath(id)}/cancel`, body: { effective_from } });
    return readPaddleSubscription(data);
  };

  return {
    name: "gateway_a",
    ...createPaddleCatalog(deps),

    async createCheckoutSession(request) {
      const settings = await deps.settings.resolve("gateway_a");
      const customerId = await paddleCustomerFor(settings, request.customer);
      const discountId = request.discount
        ? await ensurePaddleDiscount(
            settings,
            await deps.settings.activeEnvironment("gateway_a"),
            { refs: discountRefs, mutex },
            request.discount,
          )
        : null;
      const { data } = await sendPaddle(settings, {
        method: "POST",
        target: "/transactions",
        body: paddleTransactionBody(request, customerId, discountId),
      });
      const transaction = readCheckoutTransaction(data);
      return {
        session_id: transaction.id,
        url: transaction.url,
        ...(settings.client_key === null ? {} : { client_key: settings.client_key }),
      };
    },

    expireCheckout: (transactionId) => cancelPaddleTransaction(send, transactionId),

    async retireDiscount(discountId) {
      const environment = await deps.settings.activeEnvironment("gateway_a");
      await archivePaddleDiscounts(deps.settings, environment, discountRefs, discountId);
    },

    verifyWebhook(request) {
      const header = headerValue(request.headers, "paddle-signature");
      return signingEnvironment(deps.settings, "gateway_a", ({ secrets, tolerance_seconds }) =>
        verifyPaddleSignature(request.rawBody, header, secrets, tolerance_seconds, now()),
      );
    },

    normalizeWebhookPayload: normalizePaddleEvent,

    /** A Paddle transaction is the payment: adjustments and chargebacks name it directly. */
    async resolvePayment(pointer) {
      if (!pointer.payment_id) throw new UpstreamBadResponse("gateway", "the event names no transaction");
      return { payment_id: pointer.payment_id, payment_intent_id: null, charge_id: null, invoice_id: null };
    },

    refund: async (payment, amount, reference) =>
      refundAtPaddle(await deps.settings.resolve("gateway_a"), payment, amount, reference),

    async getSubscription(subscriptionId) {
      const { data } = await send({ method: "GET", target: subscriptionPath(subscriptionId) });
      return readPaddleSubscription(data);
    },

    cancelSubscription: (subscriptionId) => cancel(subscriptionId, "immediately"),

    scheduleCancellation: (subscriptionId) => cancel(subscriptionId, "next_billing_period"),

    async resumeSubscription(subscriptionId) {
      const { data } = await send({
        method: "PATCH",
        target: subscriptionPath(subscriptionId),
        body: { scheduled_change: null },
      });
      return readPaddleSubscription(data);
    },

    testConnection: () => testPaddleConnection(deps.settings),

    paymentDocumentUrl: (payment) => paddlePaymentDocument(send, payment),

    billingPortalUrl: (subscriptionId) => paddleBillingPortal(send, subscriptionId),

    ...createPaddlePlanChanges(send),
  };
}
