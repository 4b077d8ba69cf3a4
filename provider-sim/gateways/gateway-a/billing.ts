import type { SimClock } from "../../clock.ts";
import type { GatewayACatalog } from "./catalog.ts";
import { PaddleError } from "./errors.ts";
import { addCycle, type PaddleAdjustment, type PaddleSubscription, type PaddleTransaction } from "./model.ts";
import { approveRefund } from "./refunds.ts";
import type { RefundInput, TransactionInput } from "./requests.ts";
import { buildTransaction, type PricedLine, startSubscription } from "./transactions.ts";

export type GatewayABilling = ReturnType<typeof createGatewayABilling>;

/** Transactions, subscriptions and refunds of the gateway_a sandbox. */
export function createGatewayABilling(deps: {
  readonly clock: SimClock;
  readonly catalog: GatewayACatalog;
  readonly checkoutUrl: (transactionId: string) => string;
}) {
  const transactions = new Map<string, PaddleTransaction>();
  const subscriptions = new Map<string, PaddleSubscription>();
  /** Minor units refunded so far, per transaction line item id. */
  const refunded = new Map<string, number>();
  const now = () => deps.clock.now().toISOString();

  function find<T>(map: Map<string, T>, id: string): T {
    const found = map.get(id);
    if (!found) throw PaddleError.notFound(id);
    return found;
  }

  function priced(input: TransactionInput): PricedLine[] {
    return input.items.map((item) => {
      if ("price" in item) return { ...deps.catalog.customPrice(item.price), quantity: item.quantity };
      const price = deps.catalog.price(item.price_id);
      if (price.status !== "active") throw PaddleError.invalidField("items.price_id", `${price.id} is archived`);
      return { price, product: deps.catalog.product(price.product_id), quantity: item.quantity };
    });
  }

  return {
    transaction: (id: string) => find(transactions, id),
    findTransaction: (id: string) => transactions.get(id),
    subscription: (id: string) => find(subscriptions, id),
    createTransaction(input: TransactionInput): PaddleTransaction {
      const created = buildTransaction({
        lines: priced(input),
        custom_data: input.custom_data,
        currency_code: input.currency_code,
        origin: "api",
        status: "ready",
        checkoutUrl: deps.checkoutUrl,
        now: now(),
      });
      transactions.set(created.id, created);
      return created;
    },
    /** Completes a ready transaction; undefined when it was already completed. */
    complete(id: string): { transaction: PaddleTransaction; subscription: PaddleSubscription | undefined } | undefined {
      const transaction = find(transactions, id);
      if (transaction.status === "completed") return undefined;
      const at = deps.clock.now();
      const subscription = startSubscription(transaction, at);
      if (subscription) subscriptions.set(subscription.id, subscription);
      const completed: PaddleTransaction = {
        ...transaction,
        status: "completed",
        origin: "web",
        subscription_id: subscription?.id ?? null,
        billing_period: subscription?.current_billing_period ?? null,
        updated_at: at.toISOString(),
        billed_at: at.toISOString(),
      };
      transactions.set(id, completed);
      return { transaction: completed, subscription };
    },
    refund(input: RefundInput): PaddleAdjustment {
      const transaction = find(transactions, input.transaction_id);
      if (transaction.status !== "completed") throw PaddleError.invalidField("transaction_id", "must be completed");
      return approveRefund(transaction, input, refunded, now());
    },
    /** Cancels now, or schedules it for the period end; `changed` is false when it was already canceled. */
    cancel(id: string, effective: "immediately" | "next_billing_period") {
      const subscription = find(subscriptions, id);
      if (subscription.status === "canceled") return { subscription, changed: false };
      const updated: PaddleSubscription =
        effective === "immediately"
          ? {
              ...subscription,
              status: "canceled",
              canceled_at: now(),
              next_billed_at: null,
              current_billing_period: null,
              scheduled_change: null,
              updated_at: now(),
            }
          : {
              ...subscription,
              scheduled_change: {
                action: "cancel",
                effective_at: subscription.current_billing_period?.ends_at ?? now(),
              },
              updated_at: now(),
            };
      subscriptions.set(id, updated);
      return { subscription: updated, changed: effective === "immediately" };
    },
    /** Bills the next period in full and returns the completed renewal transaction. */
    renew(id: string): { transaction: PaddleTransaction; subscription: PaddleSubscription } {
      const subscription = find(subscriptions, id);
      if (subscription.status === "canceled") throw PaddleError.conflict(`${id} is canceled.`);
      const starts = new Date(subscription.current_billing_period?.ends_at ?? now());
      const period = {
        starts_at: starts.toISOString(),
        ends_at: addCycle(starts, subscription.billing_cycle).toISOString(),
      };
      const transaction = buildTransaction({
        lines: subscription.items.map(({ price, product, quantity }) => ({ price, product, quantity })),
        custom_data: subscription.custom_data,
        currency_code: subscription.currency_code,
        origin: "subscription_recurring",
        status: "completed",
        checkoutUrl: () => null,
        now: now(),
        subscription: { id, period },
      });
      transactions.set(transaction.id, transaction);
      const renewed: PaddleSubscription = {
        ...subscription,
        status: "active",
        first_billed_at: subscription.first_billed_at ?? now(),
        next_billed_at: period.ends_at,
        current_billing_period: period,
        items: subscription.items.map((item) => ({ ...item, status: "active", next_billed_at: period.ends_at })),
        updated_at: now(),
      };
      subscriptions.set(id, renewed);
      return { transaction, subscription: renewed };
    },
    clear() {
      transactions.clear();
      subscriptions.clear();
      refunded.clear();
    },
  };
}
