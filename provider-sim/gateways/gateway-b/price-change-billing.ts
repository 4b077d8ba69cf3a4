import { StripeError } from "./errors.ts";
import { type InvoiceLineInput, newInvoice, type StripeInvoice } from "./invoice-object.ts";
import { type Period, periodOf, type StripeSubscription } from "./model.ts";
import { type PriceChange, type ProrationBehavior, replacePrice } from "./plan-changes.ts";
import type { Billed as FullBill, Step, SubscriptionRecord } from "./subscription-billing.ts";
import { nextPeriod } from "./subscriptions.ts";

/** The refusal Stripe gives for a change to what a schedule runs. */
export function refuseScheduled(subscription: StripeSubscription, what: string) {
  if (subscription.schedule === null) return;
  throw StripeError.invalid(
    what,
    `The subscription is managed by the subscription schedule \`${subscription.schedule}\`, and updating any ${what} directly is not allowed. Please update the schedule instead.`,
  );
}

type Billed = Omit<FullBill, "subscription" | "previous">;

/** Price changes of the gateway_b sandbox's subscriptions (`POST /v1/subscriptions/{id}` with items) and their previews. */
export function createPriceChanges(deps: {
  readonly record: (id: string) => SubscriptionRecord;
  readonly save: (current: SubscriptionRecord, subscription: StripeSubscription) => StripeSubscription;
  readonly collect: (invoice: StripeInvoice, succeed: boolean) => Billed;
  readonly invoiceFor: (
    current: SubscriptionRecord,
    subscription: StripeSubscription,
    reason: "subscription_cycle" | "subscription_update",
    lines: readonly InvoiceLineInput[],
    period: Period,
  ) => StripeInvoice;
  readonly renewalLines: (current: SubscriptionRecord, subscription: StripeSubscription) => InvoiceLineInput[];
  readonly now: () => number;
  readonly taxRate: () => number;
  readonly balances: ReadonlyMap<string, number>;
}) {
  const { record, save, collect, invoiceFor, renewalLines, now, balances } = deps;

  return {
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
        discount: current.discount,
      });
    },
  };
}
