import type { GatewayBCatalog } from "./catalog.ts";
import { discountApplies, type StripeDiscount } from "./discounts.ts";
import { StripeError } from "./errors.ts";
import { type InvoiceLineInput, newInvoice, type StripeInvoice } from "./invoice-object.ts";
import type { InvoiceBook, InvoicePayment } from "./invoices.ts";
import { type Period, periodOf, type SessionLine, type StripeSubscription } from "./model.ts";
import type { Payment } from "./payment-model.ts";
import type { PaymentLedger } from "./payments.ts";
import { createPriceChanges, refuseScheduled } from "./price-change-billing.ts";
import { createScheduleBook } from "./schedule-book.ts";
import { ended, nextPeriod, withCancelAtPeriodEnd, withPeriod } from "./subscriptions.ts";

/** Stripe sends `customer.subscription.trial_will_end` three days before a trial ends. */
const TRIAL_WILL_END_NOTICE_S = 3 * 86_400;

export interface SubscriptionRecord {
  readonly subscription: StripeSubscription;
  /** The recurring lines, in the order of the subscription's items. */
  readonly lines: readonly SessionLine[];
  /** The email the customer gave at checkout. */
  readonly email: string | null;
  /** Prorations (`create_prorations`) waiting for the next renewal's invoice. */
  readonly pending?: readonly InvoiceLineInput[];
  /** The coupon redeemed at checkout, while it still applies. */
  readonly discount?: StripeDiscount | undefined;
}

/** The subscription loses its discount at the first period the discount no longer applies to. */
function keepingDiscount(current: SubscriptionRecord, period: Period): SubscriptionRecord {
  const discount = current.discount;
  if (!discount || discountApplies(discount, "subscription_cycle", period.start)) return current;
  return { ...current, discount: undefined, subscription: { ...current.subscription, discounts: [] } };
}

export interface Step {
  readonly subscription: StripeSubscription;
  readonly previous: StripeSubscription;
}

export interface Billed extends Step {
  readonly invoice: StripeInvoice;
  readonly invoicePayment: InvoicePayment | undefined;
  readonly payment: Payment | undefined;
}

/**
 * What reaching a period end did: `renewed` paid the next period, `failed` could not collect it
 * (a new period's invoice or a retry), `recovered` paid a past-due invoice, `ended` ended a
 * subscription set to cancel at the period end.
 */
export type PeriodEnd =
  | ({ readonly kind: "renewed" | "failed" | "recovered" } & Billed)
  | ({ readonly kind: "ended" } & Step);

/** Renewals, dunning and cancellation of the gateway_b sandbox's subscriptions. */
export function createSubscriptionBilling(deps: {
  readonly records: Map<string, SubscriptionRecord>;
  readonly ledger: PaymentLedger;
  readonly invoices: InvoiceBook;
  readonly now: () => number;
  readonly taxRate: () => number;
  readonly catalog: GatewayBCatalog;
}) {
  const { records, ledger, invoices, now } = deps;
  /** Each customer's balance: negative is credit (from a plan change), which the next invoice uses first. */
  const balances = new Map<string, number>();

  function record(id: string): SubscriptionRecord {
    const found = records.get(id);
    if (!found) throw StripeError.noSuch("subscription", id);
    return found;
  }

  function save(current: SubscriptionRecord, subscription: StripeSubscription): StripeSubscription {
    records.set(subscription.id, { ...current, subscription });
    return subscription;
  }

  const book = createScheduleBook({
    records,
    save,
    record,
    now,
    taxRate: deps.taxRate,
    catalog: deps.catalog,
    balances,
  });

  /** A new intent for the invoice, or the unpaid invoice's own intent charged again. */
  function collect(invoice: StripeInvoice, succeed: boolean) {
    if (invoice.amount_due === 0) return { ...invoices.attempt(invoice.id, undefined, now()), payment: undefined };
    const open = invoices.paymentsOf(invoice.id)[0];
    const retry = open ? ledger.intent(open.payment.payment_intent) : undefined;
    const payment = ledger.attempt(
      {
        amount: invoice.amount_due,
        currency: invoice.currency,
        metadata: {},
        customer: invoice.customer,
        invoice: invoice.id,
        created: now(),
      },
      succeed,
      retry,
    );
    return { ...invoices.attempt(invoice.id, payment, now()), payment };
  }

  function retry(current: SubscriptionRecord, open: StripeInvoice, succeed: boolean): PeriodEnd {
    const previous = current.subscription;
    const billed = collect(open, succeed);
    const status = billed.invoice.status === "paid" ? "active" : previous.status;
    const subscription = save(current, { ...previous, status });
    return { kind: billed.invoice.status === "paid" ? "recovered" : "failed", subscription, previous, ...billed };
  }

  /** An invoice for `lines`, using and then updating the customer's balance. */
  function invoiceFor(
    current: SubscriptionRecord,
    subscription: StripeSubscription,
    reason: "subscription_cycle" | "subscription_update",
    lines: readonly InvoiceLineInput[],
    period: Period,
  ) {
    const invoice = invoices.add(
      newInvoice({
        subscription,
        reason,
        lines,
        period,
        rate: deps.taxRate(),
        created: now(),
        customerEmail: current.email,
        startingBalance: balances.get(subscription.customer) ?? 0,
        discount: current.discount,
      }),
    );
    balances.set(subscription.customer, invoice.ending_balance);
    return invoice;
  }

  /** The lines a renewal bills: the items at their prices, after any prorations waiting for it. */
  function renewalLines(current: SubscriptionRecord, subscription: StripeSubscription): InvoiceLineInput[] {
    return [
      ...(current.pending ?? []),
      ...current.lines.map((line, i) => ({
        price: line.price,
        quantity: line.quantity,
        amount: line.price.unit_amount * line.quantity,
        item: subscription.items.data[i]?.id ?? null,
      })),
    ];
  }

  function bill(start: SubscriptionRecord, succeed: boolean): PeriodEnd {
    const original = start.subscription;
    const entered = book.enterPhase(start);
    const period = nextPeriod(entered.subscription);
    const current = keepingDiscount(entered, period);
    const previous = current.subscription;
    const invoice = invoiceFor(current, previous, "subscription_cycle", renewalLines(current, previous), period);
    const billed = collect(invoice, succeed);
    const paid = billed.invoice.status === "paid";
    const subscription = save(
      { ...current, pending: [] },
      { ...withPeriod(previous, period), status: paid ? "active" : "past_due", latest_invoice: invoice.id },
    );
    return { kind: paid ? "renewed" : "failed", subscription, previous: original, ...billed };
  }

  return {
    subscription: (id: string) => record(id).subscription,
    /** The customer's subscriptions with their lines, oldest first. */
    ofCustomer: (customer: string) => [...records.values()].filter((each) => each.subscription.customer === customer),
    /** The current period ends now: the subscription ends, retries its unpaid invoice or bills the next period. */
    endPeriod(id: string, succeed: boolean): PeriodEnd {
      const current = record(id);
      const previous = current.subscription;
      if (previous.status === "canceled") {
        throw new StripeError(409, "invalid_request_error", `The subscription ${id} is canceled.`);
      }
      if (previous.cancel_at_period_end) {
        return { kind: "ended", previous, subscription: save(current, ended(previous, periodOf(previous).end)) };
      }
      const open = invoices.openFor(id);
      return open ? retry(current, open, succeed) : bill(current, succeed);
    },
    ...createPriceChanges({ record, save, collect, invoiceFor, renewalLines, now, taxRate: deps.taxRate, balances }),
    ...book,
    setCancelAtPeriodEnd(id: string, on: boolean): Step {
      const current = record(id);
      const previous = current.subscription;
      if (previous.status === "canceled") {
        throw StripeError.invalid("cancel_at_period_end", "the subscription is canceled");
      }
      refuseScheduled(previous, "cancelation behavior");
      return { previous, subscription: save(current, withCancelAtPeriodEnd(previous, on, now())) };
    },
    /** Ends the subscription now; `changed` is false when it had already ended. */
    cancel(id: string): { subscription: StripeSubscription; changed: boolean } {
      const current = record(id);
      if (current.subscription.status === "canceled") return { subscription: current.subscription, changed: false };
      return { subscription: save(current, ended(current.subscription, now())), changed: true };
    },
    clear() {
      book.clear();
      balances.clear();
    },
    /** Trialing subscriptions whose trial ends within three days after `at`. */
    trialsEnding: (at: number) =>
      [...records.values()]
        .map((entry) => entry.subscription)
        .filter(
          (subscription) =>
            subscription.status === "trialing" &&
            subscription.trial_end !== null &&
            subscription.trial_end > at &&
            subscription.trial_end - TRIAL_WILL_END_NOTICE_S <= at,
        ),
    /** Subscriptions whose period has ended by `at`; a past-due one waits for a retry, as the sandbox has no dunning. */
    due: (at: number) =>
      [...records.values()]
        .map((entry) => entry.subscription)
        .filter(
          (subscription) =>
            (subscription.status === "active" || subscription.status === "trialing") &&
            periodOf(subscription).end <= at,
        )
        .map((subscription) => subscription.id),
  };
}
