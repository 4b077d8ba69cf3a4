import { defineJob } from "../shared/jobs.ts";

/**
 * Processes one stored gateway event, once per inbox entry; enqueued with the entry by the webhook
 * intake. Handled by `makeProcessPaymentEvent` (process-payment-event.ts).
 */
export const paymentEventJob = defineJob({
  kind: "payment_event",
  read: (fields) => ({ inbox_id: fields.string("inbox_id") }),
  dedupeKey: ({ inbox_id }) => `inbox:${inbox_id}`,
});

/**
 * Ends a subscription at its gateway and records it as cancelled. Handled by
 * `makeEndGatewaySubscription` (end-gateway-subscription.ts).
 */
export const endGatewaySubscriptionJob = defineJob({
  kind: "end_gateway_subscription",
  read: (fields) => ({ subscription_id: fields.string("subscription_id"), reason: fields.string("reason", "") }),
  dedupeKey: ({ subscription_id }) => `end-subscription:${subscription_id}`,
});

/**
 * Settles a refund reservation nobody settled: its maker crashed or never heard the gateway's
 * answer. Handled by `makeAdminRefund(...).settle` (admin-refund.ts).
 */
export const settleRefundJob = defineJob({
  kind: "settle_refund",
  read: (fields) => ({
    reservation_id: fields.string("reservation_id"),
    order_id: fields.string("order_id"),
    actor_id: fields.string("actor_id"),
  }),
  dedupeKey: ({ reservation_id }) => `settle_refund:${reservation_id}`,
});
