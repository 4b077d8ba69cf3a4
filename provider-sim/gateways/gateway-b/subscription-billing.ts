import type { FormObject } from "../form-body.ts";
import type { GatewayBCatalog } from "./catalog.ts";
import { StripeError } from "./errors.ts";
import { type InvoiceLineInput, newInvoice, type StripeInvoice } from "./invoice-object.ts";
import type { InvoiceBook, InvoicePayment } from "./invoices.ts";
import { type Period, periodOf, type SessionLine, type StripeSubscription } from "./model.ts";
import type { Payment } from "./payment-model.ts";
import type { PaymentLedger } from "./payments.ts";
import { type PriceChange, type ProrationBehavior, replacePrice } from "./plan-changes.ts";
import { type ScheduleRecord, scheduleFrom, scheduleObject, updatedPhases } from "./schedules.ts";
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
}

interface Step {
  readonly subscription: StripeSubscription;
  readonly previous: StripeSubscription;
}

interface Billed extends Step {
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
  const schedules = new Map<string, ScheduleRecord>();
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

  /**
   * A schedule's next phase starts where the period ends: the item takes the phase's price (and
   * the period its length); a schedule whose last phase ends here lets go of the subscription.
   */
  function enterPhase(current: SubscriptionRecord): SubscriptionRecord {
    const subscription = current.subscription;
    const schedule = subscription.schedule ? schedules.get(subscription.schedule) : undefined;
    if (schedule?.status !== "active") return current;
    const end = periodOf(subscription).end;
    const next = schedule.phases.find((phase) => phase.start === end);
    if (!next) {
      schedules.set(schedule.id, { ...schedule, status: "released", released_at: end });
      return { ...current, subscription: { ...subscription, schedule: null } };
    }
    const change = {
      item: subscription.items.data[0]?.id ?? "",
      price: next.price,
      productName: "",
      quantity: next.quantity,
    };
    const { subscription: moved } = replacePrice(withPeriod(subscription, { start: end, end }), change, end, "none");
    const lines = current.lines.map((line, i) =>
      i === 0 ? { ...line, price: next.price, quantity: next.quantity } : line,
    );
    const last = schedule.phases.at(-1) === next;
    if (last) schedules.set(schedule.id, { ...schedule, status: "released", released_at: end });
    return {
      ...current,
      lines,
      subscription: { ...withPeriod(moved, { start: end, end }), schedule: last ? null : schedule.id },
    };
  }

  function bill(start: SubscriptionRecord, succeed: boolean): PeriodEnd {
    const original = start.subscription;
    const current = enterPhase(start);
    const previous = current.subscription;
    const period = nextPeriod(previous);
    const invoice = invoiceFor(current, previous, "subscription_cycle", renewalLines(current, previous), period);
    const billed = collect(invoice, succeed);
    const paid = billed.invoice.status === "paid";
    records.set(previous.id, { ...current, pending: [] });
    const subscription = save(
      { ...current, pending: [] },
      { ...withPeriod(previous, period), status: paid ? "active" : "past_due", latest_invoice: invoice.id },
    );
    return { kind: paid ? "renewed" : "failed", subscription, previous: original, ...billed };
  }

  /** The schedule a subscription is run by, or a refusal to change what a schedule runs. */
  function refuseScheduled(subscription: StripeSubscription, what: string) {
    if (subscription.schedule === null) return;
    throw StripeError.invalid(
      what,
      `The subscription is managed by the subscription schedule \`${subscription.schedule}\`, and updating any ${what} directly is not allowed. Please update the schedule instead.`,
    );
  }

  function schedule(id: string, param = "id"): ScheduleRecord {
    const found = schedules.get(id);
    if (!found) throw StripeError.noSuch("subscription_schedule", id, param);
    return found;
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
    /**
     * `POST /v1/subscriptions/{id}` with `items`: the price replaced as `replacePrice` says, and
     * the lines invoiced and collected at once, or kept for the next renewal.
     */
    changePrice(id: string, change: PriceChange, behavior: ProrationBehavior): Step & Partial<Billed> {
      const current = record(id);
      const previous = current.subscription;
      if (previous.status === "canceled") throw StripeError.invalid("items", "the subscription is canceled");
      refuseScheduled(previous, "items");
      const replaced = replacePrice(previous, change, now(), behavior);
      const lines = current.lines.map((line, i) =>
        i === 0 ? { price: change.price, product_name: change.productName, quantity: change.quantity } : line,
      );
      const changed: SubscriptionRecord = { ...current, lines };
      if (!replaced.invoiceNow) {
        const pending = [...(current.pending ?? []), ...replaced.lines];
        return { previous, subscription: save({ ...changed, pending }, replaced.subscription) };
      }
      const invoice = invoiceFor(
        changed,
        replaced.subscription,
        "subscription_update",
        [...(current.pending ?? []), ...replaced.lines],
        periodOf(replaced.subscription),
      );
      const billed = collect(invoice, true);
      const subscription = save({ ...changed, pending: [] }, { ...replaced.subscription, latest_invoice: invoice.id });
      return { previous, subscription, ...billed };
    },
    /** `POST /v1/invoices/create_preview` for a price change: the invoice it would make, stored nowhere. */
    previewChange(id: string, change: PriceChange, behavior: ProrationBehavior): StripeInvoice {
      const current = record(id);
      const replaced = replacePrice(current.subscription, change, now(), behavior);
      const changed: SubscriptionRecord = {
        ...current,
        lines: current.lines.map((line, i) =>
          i === 0 ? { ...line, price: change.price, quantity: change.quantity } : line,
        ),
        pending: [...(current.pending ?? []), ...replaced.lines],
      };
      const subscription = replaced.subscription;
      const lines = replaced.invoiceNow ? (changed.pending ?? []) : renewalLines(changed, subscription);
      const period = replaced.invoiceNow ? periodOf(subscription) : nextPeriod(subscription);
      return newInvoice({
        subscription,
        reason: "upcoming",
        lines,
        period,
        rate: deps.taxRate(),
        created: now(),
        customerEmail: current.email,
        startingBalance: balances.get(subscription.customer) ?? 0,
        preview: true,
      });
    },
    /** `create_preview` with `schedule_details`: the invoice the schedule's next phase would start with. */
    previewPhases(customer: string, form: FormObject): StripeInvoice {
      const owned = [...records.values()].filter((each) => each.subscription.customer === customer);
      const current = owned.find((each) => each.subscription.status !== "canceled");
      if (!current) throw StripeError.invalid("customer", "the customer has no subscription to schedule");
      const draft = updatedPhases(
        scheduleFrom({ ...current.subscription, schedule: null }, now()),
        form,
        deps.catalog,
        now(),
      );
      const next = draft.phases.find((phase) => phase.start >= periodOf(current.subscription).end);
      if (!next) throw StripeError.invalid("schedule_details[phases]", "no phase starts after the current period");
      const item = current.subscription.items.data[0];
      const line: InvoiceLineInput = {
        price: next.price,
        quantity: next.quantity,
        amount: next.price.unit_amount * next.quantity,
        item: item?.id ?? null,
        period: { start: next.start, end: next.end },
      };
      return newInvoice({
        subscription: current.subscription,
        reason: "upcoming",
        lines: [...(current.pending ?? []), line],
        period: { start: next.start, end: next.end },
        rate: deps.taxRate(),
        created: now(),
        customerEmail: current.email,
        startingBalance: balances.get(customer) ?? 0,
        preview: true,
      });
    },
    schedule: (id: string) => scheduleObject(schedule(id), now()),
    /** `POST /v1/subscription_schedules` with `from_subscription`. */
    createSchedule(subscriptionId: string): { schedule: ReturnType<typeof scheduleObject>; step: Step } {
      const current = record(subscriptionId);
      const created = scheduleFrom(current.subscription, now());
      schedules.set(created.id, created);
      const previous = current.subscription;
      const subscription = save(current, { ...previous, schedule: created.id });
      return { schedule: scheduleObject(created, now()), step: { previous, subscription } };
    },
    updateSchedule(id: string, form: FormObject) {
      const updated = updatedPhases(schedule(id), form, deps.catalog, now());
      schedules.set(id, updated);
      return scheduleObject(updated, now());
    },
    /** Lets go of the subscription: it stays as it is now, and later phases never start. */
    releaseSchedule(id: string): { schedule: ReturnType<typeof scheduleObject>; step: Step | undefined } {
      const found = schedule(id);
      if (found.status !== "active") {
        throw StripeError.invalid("schedule", `You cannot release a subscription schedule that is ${found.status}.`);
      }
      const released: ScheduleRecord = { ...found, status: "released", released_at: now() };
      schedules.set(id, released);
      const current = records.get(found.subscription);
      if (!current) return { schedule: scheduleObject(released, now()), step: undefined };
      const previous = current.subscription;
      const subscription = save(current, { ...previous, schedule: null });
      return { schedule: scheduleObject(released, now()), step: { previous, subscription } };
    },
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
      schedules.clear();
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
