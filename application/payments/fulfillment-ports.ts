import type { FulfillmentRecord } from "../../domain/fulfillment/fulfillment.ts";
import type { Order, OrderItem } from "../../domain/orders/order.ts";
import type { FulfillmentAction } from "../fulfillment/ports.ts";
import type { TransactionScope } from "../shared/unit-of-work.ts";

/** What payments asks of fulfillment, in the transaction that changed the order or its money. */
export interface OrderFulfillment {
  /** Queues the delivery of each item of a paid order; a repeat queues nothing. Returns what it queued. */
  queueOrder(scope: TransactionScope, order: Order, items: readonly OrderItem[]): Promise<readonly FulfillmentRecord[]>;
  /**
   * Suspends, resumes, renews or cancels what an order (or one of its items) received. `cause`
   * keeps two causes of the same action apart (a dispute, then a second dispute).
   */
  actOnOrder(
    scope: TransactionScope,
    target: { readonly order_id: string; readonly order_item_id?: string },
    action: FulfillmentAction,
    reason: string,
    cause: string,
  ): Promise<void>;
}
