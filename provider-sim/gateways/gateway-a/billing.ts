import type { SimClock } from "../../clock.ts";
import { newGatewayId } from "../ids.ts";
import { createAdjustmentBook } from "./adjustments.ts";
import type { GatewayACatalog } from "./catalog.ts";
import { type GatewayACustomers, SANDBOX_BUYER_EMAIL } from "./customers.ts";
import { refuseIneligible, subscriptionDiscount, usableDiscount } from "./discount-terms.ts";
import type { GatewayADiscounts } from "./discounts.ts";
import { PaddleError } from "./errors.ts";
import type { PaddleSubscription } from "./model.ts";
import { changeTransaction, previewObject } from "./plan-change-transactions.ts";
import { replaceItems } from "./plan-changes.ts";
import type { RefundInput, SubscriptionPatch, TransactionInput } from "./requests.ts";
import { createSubscriptionBilling } from "./subscription-billing.ts";
import { startSubscription } from "./subscriptions.ts";
import { canceledTransaction } from "./transaction-cancel.ts";
import type { PaddleTransaction } from "./transaction-model.ts";
import { buildTransaction, completed, type PaddleTaxSettings, type PricedLine } from "./transactions.ts";

export type GatewayABilling = ReturnType<typeof createGatewayABilling>;

/** Transactions, subscriptions and adjustments of the gateway_a sandbox. */
export function createGatewayABilling(deps: {
  readonly clock: SimClock;
  readonly catalog: GatewayACatalog;
  readonly customers: GatewayACustomers;
  readonly discounts: GatewayADiscounts;
  readonly checkoutUrl: (transactionId: string) => string;
  readonly tax: () => PaddleTaxSettings;
}) {
  const transactions = new Map<string, PaddleTransaction>();
  const subscriptions = new Map<string, PaddleSubscription>();
  const adjustments = createAdjustmentBook();
  const now = () => deps.clock.now().toISOString();
  const lifecycle = createSubscriptionBilling({
    transactions,
    subscriptions,
    now,
    tax: deps.tax,
    discount: (id) => deps.discounts.discount(id),
  });

  function transaction(id: string): PaddleTransaction {
    const found = transactions.get(id);
    if (!found) throw PaddleError.notFound(id);
    return found;
  }

  function settled(id: string): PaddleTransaction {
    const found = transaction(id);
    if (found.status !== "completed") throw PaddleError.invalidField("transaction_id", "must be completed");
    return found;
  }

  function priced(items: TransactionInput["items"]): PricedLine[] {
    return items.map((item) => {
      if ("price" in item) return { ...deps.catalog.customPrice(item.price), quantity: item.quantity };
      const price = deps.catalog.price(item.price_id);
      if (price.status !== "active") throw PaddleError.invalidField("items.price_id", `${price.id} is archived`);
      return { price, product: deps.catalog.product(price.product_id), quantity: item.quantity };
    });
  }

  return {
    ...lifecycle,
    transaction,
    findTransaction: (id: string) => transactions.get(id),
    /** The customer's subscriptions, oldest first. */
    subscriptionsOf: (customerId: string) =>
      [...subscriptions.values()].filter((subscription) => subscription.customer_id === customerId),
    createTransaction(input: TransactionInput): PaddleTransaction {
      if (input.customer_id !== null && deps.customers.list({ ids: [input.customer_id] }).length === 0) {
        throw PaddleError.invalidField("customer_id", `${input.customer_id} is not a customer`);
      }
      const lines = priced(input.items);
      const discount = input.discount_id === null ? null : usableDiscount(deps.discounts.find(input.discount_id));
      if (discount) refuseIneligible(discount, lines);
      const created = buildTransaction({
        lines,
        discount,
        custom_data: input.custom_data,
        currency_code: input.currency_code,
        origin: "api",
        status: "ready",
        checkoutUrl: deps.checkoutUrl,
        now: now(),
        tax: deps.tax(),
        customer_id: input.customer_id,
      });
      transactions.set(created.id, created);
      return created;
    },
    /** Completes a ready transaction; undefined when it was already completed. */
    complete(id: string): { transaction: PaddleTransaction; subscription: PaddleSubscription | undefined } | undefined {
      const ready = transaction(id);
      if (ready.status === "completed") return undefined;
      // Paying redeems the discount: it counts towards its usage limit (renewals do not).
      const discount = ready.discount_id === null ? null : deps.discounts.use(ready.discount_id);
      const at = deps.clock.now();
      // The hosted page collects the buyer and an address when the transaction names no customer.
      const customerId = ready.customer_id ?? deps.customers.ensure(SANDBOX_BUYER_EMAIL).id;
      const customer = { customer_id: customerId, address_id: newGatewayId("add") };
      const started = startSubscription(ready, at, customer);
      const subscription = started && { ...started, discount: discount && subscriptionDiscount(discount, started) };
      if (subscription) subscriptions.set(subscription.id, subscription);
      const paid: PaddleTransaction = {
        ...completed({ ...ready, ...customer }, at.toISOString()),
        origin: "web",
        subscription_id: subscription?.id ?? null,
        billing_period: subscription?.current_billing_period ?? null,
      };
      transactions.set(id, paid);
      return { transaction: paid, subscription };
    },
    /**
     * `PATCH /subscriptions/{id}` with items: the change applied (`replaceItems`), and the
     * transaction that billed it at once, collected by the sandbox's card, if anything was due.
     */
    changeItems(id: string, patch: Extract<SubscriptionPatch, { kind: "items" }>) {
      const previous = lifecycle.subscription(id);
      const lines = priced(patch.items);
      const replacement = replaceItems(
        previous,
        { lines, mode: patch.mode, next_billed_at: patch.next_billed_at },
        deps.clock.now(),
      );
      subscriptions.set(id, replacement.subscription);
      if (replacement.lines.length === 0)
        return { previous, subscription: replacement.subscription, transaction: undefined };
      const transaction = completed(changeTransaction(replacement.subscription, replacement, deps.tax(), now()), now());
      transactions.set(transaction.id, transaction);
      return { previous, subscription: replacement.subscription, transaction };
    },
    /** `PATCH /subscriptions/{id}/preview`: the same change, computed and stored nowhere. */
    previewItems(id: string, patch: Extract<SubscriptionPatch, { kind: "items" }>) {
      const previous = lifecycle.subscription(id);
      const lines = priced(patch.items);
      const replacement = replaceItems(
        previous,
        { lines, mode: patch.mode, next_billed_at: patch.next_billed_at },
        deps.clock.now(),
      );
      return previewObject(replacement, deps.tax());
    },
    cancelTransaction(id: string): PaddleTransaction {
      const canceled = canceledTransaction(transaction(id), now());
      transactions.set(id, canceled);
      return canceled;
    },
    refund: (input: RefundInput) => adjustments.refund(settled(input.transaction_id), input, now()),
    chargeback: (id: string, amount: number | null) => adjustments.chargeback(settled(id), amount, now()),
    reverseChargeback: (id: string) => adjustments.reverseChargeback(settled(id), now()),
    adjustments: () => adjustments.all(),
    clear() {
      transactions.clear();
      subscriptions.clear();
      adjustments.clear();
    },
  };
}
