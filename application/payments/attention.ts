import { formatMinorUnits } from "../../domain/shared/money.ts";
import { orderEventData } from "../shared/event-data.ts";
import type { TransactionScope } from "../shared/unit-of-work.ts";

/**
 * Marks an order for a person to look at, and says so in the same transaction: an
 * `order.needs_attention` event for the shop's systems and an alert to operations, once per reason.
 */
export async function flagOrderForAttention(scope: TransactionScope, orderId: string, reason: string): Promise<void> {
  const order = await scope.orders.flagForAttention(orderId, reason);
  if (!order) return;
  await scope.events.publish("order.needs_attention", { ...orderEventData(order), reason });
  await scope.alerts.raise({
    kind: "order_needs_attention",
    target_id: order.id,
    occurrence: reason,
    details: { reason, status: order.status, total: formatMinorUnits(order.total, order.currency) },
  });
}
