import type { Order, OrderItem } from "../../domain/orders/order.ts";
import type { SubscriptionFacts } from "../../domain/payments/gateway-event.ts";
import type { TransactionScope } from "../shared/unit-of-work.ts";

/** The subscription records of an order's recurring items, created (or completed) from what the gateway said. */
export async function recordSubscriptions(
  scope: TransactionScope,
  order: Order,
  items: readonly OrderItem[],
  facts: SubscriptionFacts | null,
  now: Date,
): Promise<void> {
  for (const item of items) {
    if (item.billing_interval) await scope.subscriptions.upsertForItem({ order, item, facts, now });
  }
}
