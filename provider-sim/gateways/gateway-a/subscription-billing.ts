import { discountForPeriod } from "./discount-terms.ts";
import type { PaddleDiscount } from "./discounts.ts";
import { PaddleError } from "./errors.ts";
import type { PaddleSubscription } from "./model.ts";
import { billedFor, canceled, nextPeriod } from "./subscriptions.ts";
import type { PaddleTransaction } from "./transaction-model.ts";
import { buildTransaction, completed, type PaddleTaxSettings, paymentAttempt } from "./transactions.ts";

interface Step {
  readonly subscription: PaddleSubscription;
  readonly previous: PaddleSubscription;
}

/**
 * What reaching a period end did: `renewed` collected the next period's transaction, `failed`
 * could not (a new period's transaction or a retry of a past-due one), `recovered` collected a
 * past-due transaction, `ended` canceled a subscription with a scheduled cancellation.
 */
export type PeriodEnd =
  | ({ readonly kind: "renewed" | "failed" | "recovered"; readonly transaction: PaddleTransaction } & Step)
  | ({ readonly kind: "ended" } & Step);

/** Renewals, payment failures and cancellations of the gateway_a sandbox's subscriptions. */
export function createSubscriptionBilling(deps: {
  readonly transactions: Map<string, PaddleTransaction>;
  readonly subscriptions: Map<string, PaddleSubscription>;
  readonly now: () => string;
  readonly tax: () => PaddleTaxSettings;
  /** A discount by id, whatever its status: a subscription keeps its discount for its intervals. */
  readonly discount: (id: string) => PaddleDiscount;
}) {
  const { transactions, subscriptions, now } = deps;

  function find(id: string): PaddleSubscription {
    const found = subscriptions.get(id);
    if (!found) throw PaddleError.notFound(id);
    return found;
  }

  function save<T extends { id: string }>(map: Map<string, T>, value: T): T {
    map.set(value.id, value);
    return value;
  }

  function collect(transaction: PaddleTransaction, succeed: boolean): PaddleTransaction {
    if (succeed) return completed(transaction, now());
    const failed = paymentAttempt(transaction.details.totals.grand_total, false, now());
    return { ...transaction, status: "past_due", payments: [failed, ...transaction.payments], updated_at: now() };
  }

  function retry(previous: PaddleSubscription, pastDue: PaddleTransaction, succeed: boolean): PeriodEnd {
    const transaction = save(transactions, collect(pastDue, succeed));
    if (!succeed) return { kind: "failed", transaction, previous, subscription: previous };
    const subscription = save(subscriptions, { ...previous, status: "active" as const, updated_at: now() });
    return { kind: "recovered", transaction, previous, subscription };
  }

  function bill(previous: PaddleSubscription, succeed: boolean): PeriodEnd {
    const period = nextPeriod(previous, now());
    const discount = discountForPeriod(previous, period);
    const billed = buildTransaction({
      discount: discount && deps.discount(discount.id),
      lines: previous.items.map(({ price, product, quantity }) => ({ price, product, quantity })),
      custom_data: previous.custom_data,
      currency_code: previous.currency_code,
      origin: "subscription_recurring",
      status: "billed",
      checkoutUrl: () => null,
      now: now(),
      tax: deps.tax(),
      subscription: { id: previous.id, period },
      customer: { customer_id: previous.customer_id, address_id: previous.address_id },
    });
    const transaction = save(transactions, collect({ ...billed, billed_at: now() }, succeed));
    const renewed = billedFor(previous, period, now(), succeed ? "active" : "past_due");
    const subscription = save(subscriptions, { ...renewed, discount });
    return { kind: succeed ? "renewed" : "failed", transaction, previous, subscription };
  }

  return {
    subscription: find,
    /** The current period ends now: a scheduled cancellation takes effect, a past-due transaction is retried, or the next period is billed. */
    endPeriod(id: string, succeed: boolean): PeriodEnd {
      const previous = find(id);
      if (previous.status === "canceled") throw PaddleError.conflict(`${id} is canceled.`);
      if (previous.scheduled_change?.action === "cancel") {
        const ended = canceled(previous, previous.scheduled_change.effective_at);
        return { kind: "ended", previous, subscription: save(subscriptions, ended) };
      }
      const pastDue = [...transactions.values()].find(
        (transaction) => transaction.subscription_id === id && transaction.status === "past_due",
      );
      return pastDue ? retry(previous, pastDue, succeed) : bill(previous, succeed);
    },
    /** Cancels now, or schedules it for the period end; `changed` is false when nothing changed. */
    cancel(id: string, effective: "immediately" | "next_billing_period"): Step & { changed: boolean } {
      const previous = find(id);
      if (previous.status === "canceled") return { previous, subscription: previous, changed: false };
      if (effective === "immediately")
        return { previous, subscription: save(subscriptions, canceled(previous, now())), changed: true };
      if (previous.scheduled_change?.action === "cancel") return { previous, subscription: previous, changed: false };
      const effectiveAt = previous.current_billing_period?.ends_at ?? now();
      const scheduled = {
        ...previous,
        scheduled_change: { action: "cancel" as const, effective_at: effectiveAt, resume_at: null },
        updated_at: now(),
      };
      return { previous, subscription: save(subscriptions, scheduled), changed: true };
    },
    /** `PATCH /subscriptions/{id} {scheduled_change: null}`. */
    removeScheduledChange(id: string): Step & { changed: boolean } {
      const previous = find(id);
      if (previous.status === "canceled")
        throw PaddleError.invalidField("scheduled_change", "cannot change on a canceled subscription");
      if (previous.scheduled_change === null) return { previous, subscription: previous, changed: false };
      return {
        previous,
        subscription: save(subscriptions, { ...previous, scheduled_change: null, updated_at: now() }),
        changed: true,
      };
    },
    /** Active and trialing subscriptions whose period has ended by `at`; a past-due one waits for a retry. */
    due: (at: Date) =>
      [...subscriptions.values()]
        .filter(
          (subscription) =>
            (subscription.status === "active" || subscription.status === "trialing") &&
            subscription.current_billing_period !== null &&
            new Date(subscription.current_billing_period.ends_at).getTime() <= at.getTime(),
        )
        .map((subscription) => subscription.id),
  };
}
