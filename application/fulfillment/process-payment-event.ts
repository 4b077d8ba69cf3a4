import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import type { GatewayEvent } from "../../domain/payments/gateway-event.ts";
import { PermanentJobFailure } from "../jobs/ports.ts";
import type { PaymentGateway } from "../payments/ports.ts";
import type { Clock, Log } from "../shared/runtime.ts";
import { FULFILL_JOB, FULFILLMENT_ACTION_JOB } from "./job-kinds.ts";
import type { TransactionScope, UnitOfWork } from "./ports.ts";

export interface ProcessPaymentEventDeps {
  readonly gateways: Readonly<Record<PaymentGatewayName, PaymentGateway>>;
  readonly uow: UnitOfWork;
  readonly clock: Clock;
  readonly log: Log;
}

type Paid = Extract<GatewayEvent, { kind: "paid" }>;

/**
 * The payment job: resolves order and payment from a neutral event and hands over to fulfillment.
 * No product- or driver-specific branching lives here (spec 1). Every step is idempotent, since
 * gateways repeat themselves and jobs rerun after crashes.
 */
export function makeProcessPaymentEvent(deps: ProcessPaymentEventDeps) {
  const fields = (event: GatewayEvent) => ({
    gateway: event.gateway,
    event_id: event.event_id,
    order_id: "order_id" in event ? event.order_id : null,
    payment_id: "payment_id" in event ? event.payment_id : null,
  });

  const cancelDelivery = (scope: TransactionScope, fulfillmentId: string, reason: string) =>
    scope.jobs.enqueue({
      kind: FULFILLMENT_ACTION_JOB,
      payload: { fulfillment_id: fulfillmentId, action: "cancel", reason },
      dedupeKey: `cancel:${fulfillmentId}`,
    });

  async function paid(event: Paid, scope: TransactionScope) {
    const found = await scope.orders.find(event.order_id);
    if (!found) throw new PermanentJobFailure(`order ${event.order_id} does not exist`);
    const { order, items } = found;
    await scope.payments.record({
      order_id: order.id,
      gateway: event.gateway,
      payment_id: event.payment_id,
      amount: event.amount,
      currency: event.currency,
    });
    if (event.amount !== order.due_today || event.currency !== order.currency) {
      const reason = `paid ${event.amount} ${event.currency}, expected ${order.due_today} ${order.currency}`;
      await scope.orders.setStatus(order.id, ["pending_payment", "checkout_failed"], "flagged", reason);
      deps.log.warn({ ...fields(event), reason }, "payment does not match the order; flagged, nothing fulfilled");
      return;
    }
    await scope.orders.setStatus(order.id, ["pending_payment", "checkout_failed"], "paid");
    for (const item of items) {
      if (item.billing_interval)
        await scope.subscriptions.upsertForItem({ order, item, facts: event.subscription, now: deps.clock() });
    }
    for (const record of await scope.fulfillments.createQueued(order, items)) {
      await scope.jobs.enqueue({
        kind: FULFILL_JOB,
        payload: { fulfillment_id: record.id },
        dedupeKey: `fulfill:${record.id}`,
      });
    }
    deps.log.info(fields(event), "order paid; fulfillment queued");
  }

  async function apply(event: GatewayEvent, scope: TransactionScope) {
    switch (event.kind) {
      case "paid":
        return paid(event, scope);
      case "renewed":
        for (const subscription of await scope.subscriptions.findByGatewayId(event.gateway, event.subscription_id)) {
          const end = event.current_period_end ? new Date(event.current_period_end) : null;
          await scope.subscriptions.update(subscription.id, {
            status: "active",
            ...(end ? { current_period_end: end } : {}),
          });
          // A trial that converts, or a lapsed subscription that pays again, must be (re)activated downstream.
          if (subscription.status !== "active" && subscription.status !== "cancelled") {
            const record = (
              await scope.fulfillments.list({ order_id: subscription.order_id }, { limit: 100 })
            ).items.find((r) => r.order_item_id === subscription.order_item_id);
            if (record) {
              await scope.jobs.enqueue({
                kind: FULFILLMENT_ACTION_JOB,
                payload: { fulfillment_id: record.id, action: "resume", reason: "subscription renewed" },
                dedupeKey: `resume:${record.id}:${event.event_id}`,
              });
            }
          }
        }
        return;
      case "cancelled":
        for (const subscription of await scope.subscriptions.findByGatewayId(event.gateway, event.subscription_id)) {
          await scope.subscriptions.update(subscription.id, { status: "cancelled", cancelled_at: deps.clock() });
          const records = await scope.fulfillments.list({ order_id: subscription.order_id }, { limit: 100 });
          for (const record of records.items.filter((r) => r.order_item_id === subscription.order_item_id)) {
            await cancelDelivery(scope, record.id, "subscription cancelled");
          }
        }
        return;
      case "refunded": {
        const payment = await scope.payments.findByGatewayId(event.gateway, event.payment_id);
        if (!payment) throw new PermanentJobFailure(`payment ${event.payment_id} is unknown`);
        const after = await scope.payments.applyRefund(payment.id, event);
        if (after.refunded_amount < after.amount) {
          await scope.orders.setStatus(payment.order_id, ["paid"], "partially_refunded");
          return;
        }
        await scope.orders.setStatus(payment.order_id, ["paid", "partially_refunded", "flagged"], "refunded");
        const records = await scope.fulfillments.list({ order_id: payment.order_id }, { limit: 100 });
        for (const record of records.items) await cancelDelivery(scope, record.id, "payment refunded");
        return;
      }
      case "payment_failed":
        if (event.subscription_id) {
          for (const subscription of await scope.subscriptions.findByGatewayId(event.gateway, event.subscription_id)) {
            await scope.subscriptions.update(subscription.id, { status: "past_due" });
          }
        }
        deps.log.warn({ ...fields(event), reason: event.reason }, "payment failed");
        return;
      case "ignored":
        return;
    }
  }

  return async function processPaymentEvent(payload: Readonly<Record<string, unknown>>): Promise<void> {
    const inboxId = String(payload.inbox_id ?? "");
    await deps.uow.run(async (scope) => {
      const entry = await scope.inbox.find(inboxId);
      if (!entry) throw new PermanentJobFailure(`inbox entry ${inboxId} does not exist`);
      if (entry.processed_at) return;
      const event = deps.gateways[entry.gateway as PaymentGatewayName].normalizeWebhookPayload(
        JSON.parse(entry.payload),
      );
      await apply(event, scope);
      await scope.inbox.markProcessed(entry.id);
    });
  };
}
