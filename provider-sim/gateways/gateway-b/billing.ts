import type { SimClock } from "../../clock.ts";
import { newGatewayId } from "../ids.ts";
import type { GatewayBCatalog } from "./catalog.ts";
import type { StripeCoupon } from "./coupons.ts";
import { newDiscount, type StripeDiscount } from "./discounts.ts";
import { StripeError } from "./errors.ts";
import { type InvoiceLineInput, newInvoice } from "./invoice-object.ts";
import { createInvoiceBook } from "./invoices.ts";
import { type CheckoutSession, periodOf } from "./model.ts";
import { createPaymentLedger } from "./payments.ts";
import { COLLECTED_INFORMATION, customerDetails, sessionDefaults } from "./session-defaults.ts";
import { expiredSession } from "./session-expiry.ts";
import type { SessionInput } from "./session-request.ts";
import { createSubscriptionBilling, type SubscriptionRecord } from "./subscription-billing.ts";
import { newSubscription } from "./subscriptions.ts";
import { type PricedLine, sessionAmounts } from "./tax-lines.ts";

export interface SessionRecord {
  readonly session: CheckoutSession;
  readonly input: SessionInput;
  /** Each input line with what it costs today, and the tax rate of the day, so paying bills what was shown. */
  readonly priced: readonly PricedLine[];
  readonly rate: number;
}

export type GatewayBBilling = ReturnType<typeof createGatewayBBilling>;

const SESSION_LIFETIME_S = 24 * 3600;

/** Checkout sessions, payments, invoices and subscriptions of the gateway_b sandbox. */
export function createGatewayBBilling(deps: {
  readonly clock: SimClock;
  readonly checkoutUrl: (id: string) => string;
  /** Where the sandbox serves invoices and receipts: `<simulator>/documents/gateway_b`. */
  readonly documentsUrl: string;
  readonly taxRate: () => number;
  readonly catalog: GatewayBCatalog;
  /** Counts a redemption of the coupon, or refuses one no longer valid. */
  readonly redeem: (couponId: string) => StripeCoupon;
}) {
  const sessions = new Map<string, SessionRecord>();
  /** Every discount a checkout gave, kept after it ends so the invoices naming it still expand. */
  const discounts = new Map<string, StripeDiscount>();
  const records = new Map<string, SubscriptionRecord>();
  const ledger = createPaymentLedger(deps.documentsUrl);
  const invoices = createInvoiceBook(deps.documentsUrl);
  const now = () => Math.floor(deps.clock.now().getTime() / 1000);
  const subscriptions = createSubscriptionBilling({
    records,
    ledger,
    invoices,
    now,
    taxRate: deps.taxRate,
    catalog: deps.catalog,
  });

  function subscribe(record: SessionRecord, customer: string, coupon: StripeCoupon | null) {
    const created = newSubscription(record.input, record.session.currency, now(), customer);
    const lines = created.lines;
    const discount =
      coupon &&
      newDiscount({
        coupon,
        customer,
        subscription: created.subscription.id,
        checkoutSession: record.session.id,
        start: now(),
      });
    if (discount) discounts.set(discount.id, discount);
    const subscription = { ...created.subscription, discounts: discount ? [discount.id] : [] };
    const items = subscription.items.data;
    const invoiceLines: InvoiceLineInput[] = record.priced.map((line) => ({
      ...line,
      item: line.price.recurring ? (items[lines.findIndex((entry) => entry.price === line.price)]?.id ?? null) : null,
    }));
    const draft = invoices.add(
      newInvoice({
        subscription,
        reason: "subscription_create",
        lines: invoiceLines,
        period: periodOf(subscription),
        rate: record.rate,
        created: now(),
        customerEmail: record.session.customer_email,
        discount: discount ?? undefined,
      }),
    );
    const payment =
      draft.amount_due > 0
        ? ledger.attempt(
            {
              amount: draft.amount_due,
              currency: draft.currency,
              metadata: {},
              customer,
              invoice: draft.id,
              created: now(),
            },
            true,
          )
        : undefined;
    const { invoice, invoicePayment } = invoices.attempt(draft.id, payment, now());
    const started = { ...subscription, latest_invoice: invoice.id };
    records.set(started.id, {
      subscription: started,
      lines,
      email: record.session.customer_email,
      discount: discount ?? undefined,
    });
    return { subscription: started, invoice, invoicePayment, payment };
  }

  return {
    ledger,
    invoices,
    subscriptions,
    findSession: (id: string) => sessions.get(id),
    discount(id: string): StripeDiscount {
      const found = discounts.get(id);
      if (!found) throw StripeError.noSuch("discount", id);
      return found;
    },
    session(id: string): CheckoutSession {
      const found = sessions.get(id);
      if (!found) throw StripeError.noSuch("checkout.session", id);
      return found.session;
    },
    expireSession(id: string): CheckoutSession {
      const record = sessions.get(id);
      if (!record) throw StripeError.noSuch("checkout.session", id);
      const session = expiredSession(record.session);
      sessions.set(id, { ...record, session });
      return session;
    },
    createSession(input: SessionInput): CheckoutSession {
      const trial = input.trial_period_days !== null;
      const priced = input.lines.map((line) => ({
        price: line.price,
        quantity: line.quantity,
        amount: trial && line.price.recurring ? 0 : line.price.unit_amount * line.quantity,
      }));
      const rate = deps.taxRate();
      const id = newGatewayId("cs");
      const session: CheckoutSession = {
        id,
        object: "checkout.session",
        ...sessionDefaults(input.mode),
        url: deps.checkoutUrl(id),
        status: "open",
        payment_status: "unpaid",
        ...sessionAmounts(priced, rate, input.coupon),
        discounts: input.coupon ? [{ coupon: input.coupon.id, promotion_code: null }] : [],
        currency: input.lines[0]?.price.currency ?? "usd",
        client_reference_id: input.client_reference_id,
        customer: null,
        customer_email: input.customer_email,
        customer_details: null,
        collected_information: null,
        metadata: input.metadata,
        mode: input.mode,
        payment_method_types: ["card"],
        success_url: input.success_url,
        cancel_url: input.cancel_url,
        payment_intent: null,
        subscription: null,
        invoice: null,
        created: now(),
        expires_at: now() + SESSION_LIFETIME_S,
        livemode: false,
      };
      sessions.set(id, { session, input, priced, rate });
      return session;
    },
    /**
     * Completes an open session; undefined when it was already complete. A payment-mode session is
     * paid by its own payment intent; a subscription-mode one by the subscription's first invoice,
     * so it names that invoice and no payment intent, as at Stripe. The session's coupon is
     * redeemed first, so a coupon that ran out meanwhile refuses the payment.
     */
    complete(id: string) {
      const record = sessions.get(id);
      if (!record) throw StripeError.noSuch("checkout.session", id);
      if (record.session.status === "complete") return undefined;
      const { session, input } = record;
      const coupon = input.coupon && deps.redeem(input.coupon.id);
      const paymentStatus = session.amount_total > 0 ? "paid" : "no_payment_required";
      const collected = {
        customer_details: customerDetails(session.customer_email),
        collected_information: COLLECTED_INFORMATION,
      };
      if (session.mode === "subscription") {
        const customer = newGatewayId("cus");
        const started = subscribe(record, customer, coupon);
        const completed: CheckoutSession = {
          ...session,
          ...collected,
          status: "complete",
          payment_status: paymentStatus,
          customer,
          subscription: started.subscription.id,
          invoice: started.invoice.id,
        };
        sessions.set(id, { ...record, session: completed });
        return { session: completed, ...started };
      }
      const payment =
        session.amount_total > 0
          ? ledger.attempt(
              {
                amount: session.amount_total,
                currency: session.currency,
                metadata: input.payment_metadata,
                customer: null,
                invoice: null,
                created: now(),
              },
              true,
            )
          : undefined;
      const completed: CheckoutSession = {
        ...session,
        ...collected,
        status: "complete",
        payment_status: paymentStatus,
        payment_intent: payment?.id ?? null,
      };
      sessions.set(id, { ...record, session: completed });
      return { session: completed, payment };
    },
    clear() {
      sessions.clear();
      discounts.clear();
      records.clear();
      subscriptions.clear();
      ledger.clear();
      invoices.clear();
    },
  };
}
