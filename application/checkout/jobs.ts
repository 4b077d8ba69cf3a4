import { defineJob } from "../shared/jobs.ts";

/**
 * Closes an expired order's checkout at its gateway. Handled by `makeExpireGatewayCheckout`
 * (expire-unpaid-orders.ts).
 */
export const expireCheckoutJob = defineJob({
  kind: "expire_checkout",
  read: (fields) => ({ order_id: fields.string("order_id") }),
  dedupeKey: ({ order_id }) => `expire-checkout:${order_id}`,
});
