import { OrderNotFound } from "../../domain/orders/errors.ts";
import { NothingToApprove } from "../../domain/payments/errors.ts";
import type { OrderFilter, OrderRepository } from "../checkout/ports.ts";
import type { PageRequest } from "../shared/ports.ts";
import { type AdminRefundDeps, makeAdminRefund, type RefundRequest } from "./admin-refund.ts";
import { releasePaidOrder } from "./release-paid-order.ts";

export function makeAdminOrders(deps: AdminRefundDeps & { readonly orders: OrderRepository }) {
  const refunds = makeAdminRefund(deps);
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
     * the gateway that took it (`makeAdminRefund`). The ledger and the order's status change at
     * once; delivery follows from what is left (nothing left: cancelled).
     */
    async refund(orderId: string, request: RefundRequest, actorId: string, requestKey: string | null = null) {
      await get(orderId);
      await refunds.refund(orderId, request, actorId, requestKey);
      return get(orderId);
    },

    settleRefund: refunds.settle,

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
          await releasePaidOrder(scope, deps.fulfillment, (await scope.orders.find(order.id))?.order ?? current, items);
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
