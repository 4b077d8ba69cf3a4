import { OrderTransitionRefused } from "../../domain/orders/errors.ts";
import type { OrderEvent } from "../../domain/orders/order-status.ts";
import type { GatewayEvent } from "../../domain/payments/gateway-event.ts";
import { type Payment, refundStatus } from "../../domain/payments/payment.ts";
import type { Log } from "../shared/clock-and-log.ts";
import { PermanentJobFailure } from "../shared/errors.ts";
import { orderEventData, paymentEventData } from "../shared/event-data.ts";
import type { TransactionScope } from "../shared/unit-of-work.ts";
import { flagOrderForAttention } from "./attention.ts";
import { endOrderBilling } from "./end-gateway-subscription.ts";
import type { OrderFulfillment } from "./fulfillment-ports.ts";
import type { RefundReport } from "./ledger-ports.ts";
import type { EventContext } from "./receive-payment.ts";

export interface RefundAndDisputeDeps {
  readonly log: Log;
  readonly fulfillment: Pick<OrderFulfillment, "actOnOrder">;
}

type Refunded = Extract<GatewayEvent, { kind: "refunded" }>;
type DisputeEvent = Extract<GatewayEvent, { kind: "dispute_opened" | "dispute_won" | "dispute_lost" }>;

/**
 * Moves an order, or leaves it where it is when the state machine refuses: money moved either
 * way, and the ledger has it. Returns whether the order moved.
 */
async function tryMove(scope: TransactionScope, orderId: string, event: OrderEvent, log: Log): Promise<boolean> {
  const found = await scope.orders.find(orderId);
  if (!found) return false;
  try {
    await scope.orders.move(found.order, event);
    return true;
  } catch (error) {
    if (!(error instanceof OrderTransitionRefused)) throw error;
    log.info({ order_id: orderId, status: found.order.status, event }, "order status left as it is");
    return false;
  }
}

/**
 * After money went back, the one place an order's refund status is decided (`refundStatus`, moved
 * through the state machine): a refunded order's deliveries are cancelled and its billing ended.
 */
export async function settleAfterRefund(
  scope: TransactionScope,
  orderId: string,
  deps: RefundAndDisputeDeps,
): Promise<void> {
  const status = refundStatus(await scope.payments.forOrder(orderId));
  if (status === null || !(await tryMove(scope, orderId, status, deps.log))) return;
  if (status === "refunded") {
    await deps.fulfillment.actOnOrder(scope, { order_id: orderId }, "cancel", "payment refunded", "refunded");
    await endOrderBilling(scope, orderId, "payment refunded");
  }
}

/**
 * Records money going back on a payment (`before`, as read under its lock) and settles the order.
 * Only what raised the refunded amount is told to the shop's systems as `order.refunded`, as much
 * as it raised it: a refund the ledger already holds (the gateway's event about an admin's refund,
 * or the admin's record of a refund a running total already counted) tells nothing again.
 */
export async function recordRefund(
  scope: TransactionScope,
  before: Payment,
  refund: RefundReport,
  deps: RefundAndDisputeDeps,
): Promise<void> {
  const after = await scope.payments.applyRefund(before.id, refund);
  await settleAfterRefund(scope, before.order_id, deps);
  const refunded = after.refunded_amount - before.refunded_amount;
  if (refunded <= 0) return;
  const found = await scope.orders.find(before.order_id);
  if (!found) return;
  await scope.events.publish("order.refunded", {
    ...orderEventData(found.order),
    refund: {
      refund_id: refund.refund_id,
      amount: refunded,
      currency: after.currency,
      status: refundStatus(await scope.payments.forOrder(before.order_id)),
      payment: paymentEventData(after),
    },
  });
}

/** Refunds and disputes, matched to the payment they concern by any of its ids. */
export function makeRefundAndDisputeReceivers(deps: RefundAndDisputeDeps) {
  /** Money going back for a payment the ledger does not know: a person must look. */
  async function unmatched(scope: TransactionScope, event: Refunded | DisputeEvent, what: string): Promise<void> {
    const named = event.payment.payment_id ?? event.payment.charge_id ?? event.payment.invoice_id ?? "unnamed";
    const reason = `${what} of ${event.amount} ${event.currency} for payment ${named} matches no payment in the ledger`;
    if (event.order_id === null || !(await scope.orders.find(event.order_id))) {
      throw new PermanentJobFailure(reason);
    }
    await flagOrderForAttention(scope, event.order_id, reason);
    deps.log.warn({ order_id: event.order_id, gateway: event.gateway, reason }, "unmatched money movement");
  }

  async function paymentOf(scope: TransactionScope, event: Refunded | DisputeEvent, context: EventContext) {
    const payment = await scope.payments.find(event.gateway, context.payment);
    if (payment) await scope.payments.link(payment.id, context.payment);
    return payment;
  }

  async function refunded(event: Refunded, context: EventContext, scope: TransactionScope) {
    const payment = await paymentOf(scope, event, context);
    if (!payment) return unmatched(scope, event, "a refund");
    await recordRefund(scope, payment, event, deps);
  }

  async function disputed(event: DisputeEvent, context: EventContext, scope: TransactionScope) {
    const payment = await paymentOf(scope, event, context);
    if (!payment) return unmatched(scope, event, "a dispute");
    const status = event.kind === "dispute_opened" ? "open" : event.kind === "dispute_won" ? "won" : "lost";
    const settled = await scope.payments.settleDispute(payment, {
      gateway_dispute_id: event.dispute_id,
      amount: event.amount,
      currency: event.currency,
      status,
    });
    if (!settled.changed) return;
    const order = { order_id: payment.order_id };
    const cause = `${event.dispute_id}:${status}`;
    const about = `dispute ${event.dispute_id} over ${event.amount} ${event.currency} on payment ${payment.payment_id}`;
    if (event.kind === "dispute_opened") {
      await tryMove(scope, payment.order_id, "dispute_opened", deps.log);
      await flagOrderForAttention(scope, payment.order_id, `${about} opened`);
      await deps.fulfillment.actOnOrder(scope, order, "suspend", "payment disputed", cause);
    } else if (event.kind === "dispute_won") {
      const refundedBefore = refundStatus(await scope.payments.forOrder(payment.order_id)) !== null;
      const back = refundedBefore ? "dispute_won_partially_refunded" : "dispute_won_paid";
      if (await tryMove(scope, payment.order_id, back, deps.log)) {
        await deps.fulfillment.actOnOrder(scope, order, "resume", "dispute won", cause);
      }
    } else {
      await tryMove(scope, payment.order_id, "dispute_lost", deps.log);
      await flagOrderForAttention(scope, payment.order_id, `${about} lost`);
      await deps.fulfillment.actOnOrder(scope, order, "cancel", "dispute lost", cause);
      await endOrderBilling(scope, payment.order_id, "dispute lost");
    }
    deps.log.warn({ order_id: payment.order_id, gateway: event.gateway, dispute: status }, about);
  }

  return { refunded, disputed };
}
