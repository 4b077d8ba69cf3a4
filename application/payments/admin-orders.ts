import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import { OrderNotFound } from "../../domain/orders/order.ts";
import { retainedAmount } from "../../domain/payments/payment.ts";
import { DomainError, fixedError } from "../../domain/shared/domain-error.ts";
import type { OrderFilter, OrderRepository } from "../checkout/ports.ts";
import type { PageRequest } from "../shared/ports.ts";
import type { Log } from "../shared/runtime.ts";
import type { UnitOfWork } from "../shared/unit-of-work.ts";
import { releasePaidOrder } from "./deliveries.ts";
import { recordRefund } from "./money-back.ts";
import type { PaymentGateway } from "./ports.ts";

export class NothingToRefund extends fixedError(
  "NOTHING_TO_REFUND",
  "conflict",
  "The order has no payment left to refund.",
) {}

export class RefundExceedsPayment extends DomainError {
  readonly code = "REFUND_EXCEEDS_PAYMENT";
  readonly category = "invalid";
  constructor(refundable: number) {
    super(`At most ${refundable} (minor units) can still be refunded.`, [
      { path: "/amount", code: "REFUND_EXCEEDS_PAYMENT", message: `must be between 1 and ${refundable}` },
    ]);
  }
}

export class PaymentNotOfOrder extends fixedError(
  "PAYMENT_NOT_FOUND",
  "invalid",
  "The order has no payment with this id.",
  [{ path: "/payment_id", code: "PAYMENT_NOT_FOUND", message: "is not a payment of this order" }],
) {}

export class RefundFailed extends fixedError(
  "REFUND_FAILED",
  "upstream_failed",
  "The payment gateway refused the refund; nothing was refunded.",
) {}

export class NothingToApprove extends fixedError(
  "NOTHING_TO_APPROVE",
  "conflict",
  "The order neither needs attention nor waits for approval.",
) {}

export function makeAdminOrders(deps: {
  orders: OrderRepository;
  gateways: Readonly<Record<PaymentGatewayName, PaymentGateway>>;
  uow: UnitOfWork;
  log: Log;
}) {
  async function get(orderId: string) {
    const details = await deps.orders.find(orderId);
    if (!details) throw new OrderNotFound();
    return details;
  }

  return {
    list: (filter: OrderFilter, page: PageRequest) => deps.orders.list(filter, page),
    get,

    /**
     * A full or partial refund of one payment (default: the latest with something left), through
     * the gateway that took it. The ledger and the order's status change at once; delivery
     * follows from what is left (nothing left: cancelled).
     */
    async refund(orderId: string, request: { payment_id?: string; amount?: number }, actorId: string) {
      const { payments } = await get(orderId);
      const payment = request.payment_id
        ? payments.find((candidate) => candidate.payment_id === request.payment_id)
        : [...payments].reverse().find((candidate) => retainedAmount(candidate) > 0);
      if (!payment) throw request.payment_id ? new PaymentNotOfOrder() : new NothingToRefund();
      const refundable = retainedAmount(payment);
      if (refundable === 0) throw new NothingToRefund();
      const requested = request.amount ?? refundable;
      if (!Number.isInteger(requested) || requested < 1 || requested > refundable) {
        throw new RefundExceedsPayment(refundable);
      }
      const whole = requested === payment.amount;
      const result = await deps.gateways[payment.gateway].refund(
        { payment_id: payment.payment_id, order_id: orderId, currency: payment.currency },
        whole ? null : requested,
      );
      if (result.status === "failed") throw new RefundFailed();
      await deps.uow.run(async (scope) => {
        // Read again under its lock: the gateway's event about this refund may be applied meanwhile,
        // as a running total that already counts it. What was refunded before the gateway was asked
        // cannot hold this refund: the ledger rises to that plus this refund, not by it. A concurrent
        // admin refund has its own refund id and counts beside this one.
        const locked = (await scope.payments.find(payment.gateway, { payment_id: payment.payment_id })) ?? payment;
        await recordRefund(
          scope,
          locked,
          {
            refund_id: result.refund_id,
            amount: requested,
            cumulative: false,
            refunded_before: payment.refunded_amount,
          },
          deps.log,
        );
        await scope.audit.record({
          actor_id: actorId,
          action: "order.refund",
          target_type: "order",
          target_id: orderId,
          summary: {
            payment_id: payment.payment_id,
            gateway: payment.gateway,
            refund_id: result.refund_id,
            amount: requested,
            currency: payment.currency,
          },
        });
      });
      return get(orderId);
    },

    /**
     * An admin accepts an order that needs attention: a flagged order is delivered (once, however
     * often this is called); an order already delivered only loses its flag.
     */
    async approve(orderId: string, actorId: string) {
      await deps.uow.run(async (scope) => {
        const found = await scope.orders.find(orderId);
        if (!found) throw new OrderNotFound();
        const { order, items } = found;
        if (!order.needs_attention && order.status !== "flagged") throw new NothingToApprove();
        const current = order.status === "flagged" ? await scope.orders.move(order, "approved") : order;
        await scope.orders.clearAttention(order.id);
        if (current.status === "paid") {
          await releasePaidOrder(scope, (await scope.orders.find(order.id))?.order ?? current, items);
        }
        await scope.audit.record({
          actor_id: actorId,
          action: "order.approve",
          target_type: "order",
          target_id: order.id,
          summary: {
            status: { from: order.status, to: current.status },
            needs_attention_cleared: order.needs_attention,
          },
        });
        deps.log.info({ order_id: order.id, status: current.status }, "order approved by an admin");
      });
      return get(orderId);
    },
  };
}
