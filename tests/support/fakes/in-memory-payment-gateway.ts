import type {
  CheckoutSession,
  CheckoutSessionRequest,
  PaymentGateway,
  RefundResult,
  RemoteSubscription,
} from "../../../application/payments/ports.ts";
import { UpstreamRejected } from "../../../application/shared/errors.ts";
import type { PaymentGatewayName } from "../../../domain/catalog/product.ts";
import { InvalidWebhookPayload, InvalidWebhookSignature } from "../../../domain/payments/errors.ts";

type Method = Exclude<keyof PaymentGateway, "name">;

/** Answers a call is held on until the test lets it go (to observe a request in flight). */
interface Hold {
  readonly started: Promise<void>;
  release(): void;
}

/**
 * A payment gateway in memory: it opens and expires checkout sessions, refunds, and keeps subscriptions whose
 * cancellation it schedules, withdraws or carries out. Every call is recorded; `fail` makes a method
 * throw until `recover`, and `hold` keeps the next call of a method waiting. It sends no webhooks,
 * so there is nothing to verify, normalize or resolve: those refuse.
 */
export function createInMemoryPaymentGateway(name: PaymentGatewayName, options: { readonly clientKey?: string } = {}) {
  const calls: { method: Method; args: unknown[] }[] = [];
  const sessions: CheckoutSessionRequest[] = [];
  const refunds: { payment_id: string; amount: number | null }[] = [];
  const subscriptions = new Map<string, RemoteSubscription>();
  const failures = new Map<Method, Error>();
  const holds = new Map<Method, { arrived(): void; readonly released: Promise<void> }>();
  const expired = new Set<string>();
  let sessionCount = 0;

  async function call<T>(method: Method, args: unknown[], answer: () => T): Promise<T> {
    calls.push({ method, args });
    const held = holds.get(method);
    if (held) {
      holds.delete(method);
      held.arrived();
      await held.released;
    }
    const failure = failures.get(method);
    if (failure) throw failure;
    return answer();
  }

  const subscription = (id: string) => {
    const found = subscriptions.get(id);
    if (!found) throw new UpstreamRejected("gateway", 404, "resource_missing", `no subscription ${id}`);
    return found;
  };
  const changeSubscription = (id: string, patch: Partial<RemoteSubscription>) => {
    const changed = { ...subscription(id), ...patch };
    subscriptions.set(id, changed);
    return changed;
  };

  const gateway: PaymentGateway = {
    name,
    createCheckoutSession: (request) =>
      call("createCheckoutSession", [request], (): CheckoutSession => {
        sessions.push(request);
        sessionCount += 1;
        const session_id = `cs_${name}_${sessionCount}`;
        return {
          session_id,
          url: `https://checkout.${name}.test/${session_id}`,
          ...(options.clientKey ? { client_key: options.clientKey } : {}),
        };
      }),
    expireCheckout: (sessionId) =>
      call("expireCheckout", [sessionId], () => {
        const closed = !expired.has(sessionId);
        expired.add(sessionId);
        return { closed_now: closed, status: "expired" };
      }),
    retireDiscount: (discountId) => call("retireDiscount", [discountId], () => undefined),
    verifyWebhook: (request) =>
      call("verifyWebhook", [request], () => {
        throw new InvalidWebhookSignature("the in-memory gateway signs no webhooks");
      }),
    normalizeWebhookPayload(payload) {
      calls.push({ method: "normalizeWebhookPayload", args: [payload] });
      throw new InvalidWebhookPayload("the in-memory gateway sends no events");
    },
    refund: (payment, amount, reference, options) =>
      call("refund", [payment, amount, reference, options], (): RefundResult => {
        refunds.push({ payment_id: payment.payment_id, amount });
        return { refund_id: `re_${name}_${refunds.length}`, status: "succeeded" };
      }),
    resolvePayment: (pointer) =>
      call("resolvePayment", [pointer], () => {
        throw new UpstreamRejected("gateway", 404, "resource_missing", "the in-memory gateway took no payments");
      }),
    getSubscription: (id) => call("getSubscription", [id], () => subscription(id)),
    cancelSubscription: (id) =>
      call("cancelSubscription", [id], () =>
        changeSubscription(id, {
          status: "canceled",
          cancelled_at: new Date().toISOString(),
          cancel_at_period_end: false,
        }),
      ),
    scheduleCancellation: (id) =>
      call("scheduleCancellation", [id], () =>
        subscription(id).status === "canceled"
          ? subscription(id)
          : changeSubscription(id, { cancel_at_period_end: true }),
      ),
    resumeSubscription: (id) =>
      call("resumeSubscription", [id], () =>
        subscription(id).status === "canceled"
          ? subscription(id)
          : changeSubscription(id, { cancel_at_period_end: false }),
      ),
    testConnection: () =>
      call("testConnection", [], () => ({ ok: true as const, environment: "sandbox" as const, latency_ms: 1 })),
    // A document for every payment, at an address naming it.
    paymentDocumentUrl: (payment) =>
      call("paymentDocumentUrl", [payment], () => `https://documents.${name}.test/${payment.payment_id}`),
    // A portal page for every known subscription, at an address naming it.
    billingPortalUrl: (id, returnUrl) =>
      call(
        "billingPortalUrl",
        [id, returnUrl],
        () => `https://portal.${name}.test/${subscription(id).subscription_id}`,
      ),
    // A change now bills the new price in full; one at the period end bills nothing now.
    previewPlanChange: (change) =>
      call("previewPlanChange", [change], () => ({
        due_now: change.timing === "now" ? change.unit_amount : 0,
        next_amount: change.unit_amount,
        next_billing_at: subscription(change.subscription_id).current_period_end,
        currency: change.currency,
      })),
    releasePlanChange: (id) => call("releasePlanChange", [id], () => subscription(id)),
    changePlan: (change) =>
      call("changePlan", [change], () =>
        change.timing === "now"
          ? changeSubscription(change.subscription_id, {
              price_id: change.gateway_price_id ?? `price_${change.variant}`,
              billing_interval: change.variant,
            })
          : subscription(change.subscription_id),
      ),
  };

  return {
    ...gateway,
    calls,
    sessions,
    refunds,
    subscriptions: subscriptions as ReadonlyMap<string, RemoteSubscription>,
    /** The calls of one method, in order. */
    callsOf: (method: Method) => calls.filter((c) => c.method === method).map((c) => c.args),
    addSubscription(id: string, overrides: Partial<RemoteSubscription> = {}) {
      subscriptions.set(id, {
        subscription_id: id,
        status: "active",
        customer_id: `cus_${id}`,
        trial_ends_at: null,
        current_period_end: null,
        cancelled_at: null,
        cancel_at_period_end: false,
        price_id: null,
        billing_interval: "monthly",
        ...overrides,
      });
    },
    fail(method: Method, error: Error) {
      failures.set(method, error);
    },
    recover(method: Method) {
      failures.delete(method);
    },
    /** The next call of `method` waits until `release`; `started` resolves once it arrived. */
    hold(method: Method): Hold {
      let arrived = () => {};
      let release = () => {};
      const started = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      holds.set(method, { arrived, released });
      return { started, release };
    },
  };
}

export type InMemoryPaymentGateway = ReturnType<typeof createInMemoryPaymentGateway>;
