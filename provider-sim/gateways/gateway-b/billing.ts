import type { SimClock } from "../../clock.ts";
import { newGatewayId } from "../ids.ts";
import { StripeError } from "./errors.ts";
import {
  addIntervalUnix,
  type CheckoutSession,
  type Payment,
  type SessionLine,
  type StripeSubscription,
} from "./model.ts";
import type { SessionInput } from "./session-request.ts";
import { newSubscription } from "./subscriptions.ts";

export interface SessionRecord {
  readonly session: CheckoutSession;
  readonly input: SessionInput;
}

export type GatewayBBilling = ReturnType<typeof createGatewayBBilling>;

const SESSION_LIFETIME_S = 24 * 3600;
const lineAmount = (line: SessionLine) => line.price.unit_amount * line.quantity;

/** Checkout sessions, payments and subscriptions of the gateway_b sandbox. */
export function createGatewayBBilling(deps: {
  readonly clock: SimClock;
  readonly checkoutUrl: (id: string) => string;
}) {
  const sessions = new Map<string, SessionRecord>();
  const subscriptions = new Map<string, { subscription: StripeSubscription; lines: readonly SessionLine[] }>();
  const payments = new Map<string, Payment>();
  const now = () => Math.floor(deps.clock.now().getTime() / 1000);

  function subscriptionRecord(id: string) {
    const found = subscriptions.get(id);
    if (!found) throw StripeError.noSuch("subscription", id);
    return found;
  }

  function capture(amount: number, currency: string, metadata: Record<string, string>): Payment | undefined {
    if (amount === 0) return undefined;
    const payment = { id: newGatewayId("pi"), charge: newGatewayId("ch"), amount, currency, refunded: 0, metadata };
    payments.set(payment.id, payment);
    return payment;
  }

  function subscribe(record: SessionRecord, invoice: string): StripeSubscription {
    const { subscription, lines } = newSubscription(record.input, record.session.currency, now(), invoice);
    subscriptions.set(subscription.id, { subscription, lines });
    return subscription;
  }

  return {
    payments,
    findSession: (id: string) => sessions.get(id),
    session(id: string): CheckoutSession {
      const found = sessions.get(id);
      if (!found) throw StripeError.noSuch("checkout.session", id);
      return found.session;
    },
    subscription: (id: string) => subscriptionRecord(id).subscription,
    createSession(input: SessionInput): CheckoutSession {
      const trial = input.trial_period_days !== null;
      const due = input.lines.reduce((sum, line) => sum + (trial && line.price.recurring ? 0 : lineAmount(line)), 0);
      const id = newGatewayId("cs");
      const session: CheckoutSession = {
        id,
        object: "checkout.session",
        url: deps.checkoutUrl(id),
        status: "open",
        payment_status: "unpaid",
        amount_subtotal: due,
        amount_total: due,
        currency: input.lines[0]?.price.currency ?? "usd",
        client_reference_id: input.client_reference_id,
        customer_email: input.customer_email,
        metadata: input.metadata,
        mode: input.mode,
        success_url: input.success_url,
        cancel_url: input.cancel_url,
        payment_intent: null,
        subscription: null,
        invoice: null,
        created: now(),
        expires_at: now() + SESSION_LIFETIME_S,
        livemode: false,
      };
      sessions.set(id, { session, input });
      return session;
    },
    /** Completes an open session; undefined when it was already complete. */
    complete(id: string): CheckoutSession | undefined {
      const record = sessions.get(id);
      if (!record) throw StripeError.noSuch("checkout.session", id);
      if (record.session.status === "complete") return undefined;
      const { session, input } = record;
      const payment = capture(session.amount_total, session.currency, input.payment_metadata);
      const invoice = session.mode === "subscription" ? newGatewayId("in") : null;
      const subscription = invoice ? subscribe(record, invoice) : undefined;
      const completed: CheckoutSession = {
        ...session,
        status: "complete",
        payment_status: payment ? "paid" : "no_payment_required",
        payment_intent: payment?.id ?? null,
        subscription: subscription?.id ?? null,
        invoice,
      };
      sessions.set(id, { session: completed, input });
      return completed;
    },
    /** Ends the subscription now; `changed` is false when it had already ended. */
    cancel(id: string): { subscription: StripeSubscription; changed: boolean } {
      const record = subscriptionRecord(id);
      if (record.subscription.status === "canceled") return { subscription: record.subscription, changed: false };
      const subscription: StripeSubscription = {
        ...record.subscription,
        status: "canceled",
        canceled_at: now(),
        ended_at: now(),
      };
      subscriptions.set(id, { ...record, subscription });
      return { subscription, changed: true };
    },
    /** Bills the next period in full: the subscription moves on and an invoice is paid. */
    renew(id: string) {
      const record = subscriptionRecord(id);
      const current = record.subscription;
      if (current.status === "canceled")
        throw new StripeError(409, "invalid_request_error", `The subscription ${id} is canceled.`);
      const first = record.lines[0]?.price.recurring;
      const start = current.current_period_end;
      const end = first ? addIntervalUnix(start, first.interval, first.interval_count) : start;
      const amount = record.lines.reduce((sum, line) => sum + lineAmount(line), 0);
      // Like Stripe's invoice payments, a renewal's charge carries no metadata of its own.
      const payment = capture(amount, current.currency, {});
      const invoice = newGatewayId("in");
      const subscription: StripeSubscription = {
        ...current,
        status: "active",
        current_period_start: start,
        current_period_end: end,
        latest_invoice: invoice,
      };
      subscriptions.set(id, { ...record, subscription });
      return { subscription, invoice, payment, amount, lines: record.lines, period: { start, end } };
    },
    clear() {
      sessions.clear();
      subscriptions.clear();
      payments.clear();
    },
  };
}
