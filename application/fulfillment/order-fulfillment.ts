import { actOnOrder } from "./act-on-order.ts";
import { queueOrder } from "./queue-order.ts";

/**
 * What fulfillment does for an order when the money behind it moves, inside the caller's
 * transaction: payments (a payment, a refund, a dispute, a renewal) and customers (a subscription
 * the gateway ended) are handed this through their own ports.
 */
export const orderFulfillment = { queueOrder, actOnOrder } as const;
