import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import { OrderNotFound } from "../../domain/orders/order.ts";
import { DomainError } from "../../domain/shared/domain-error.ts";
import type { PageRequest } from "../catalog/ports.ts";
import type { OrderFilter, OrderRepository } from "../checkout/ports.ts";
import type { PaymentGateway } from "../payments/ports.ts";

export class NothingToRefund extends DomainError {
  readonly code = "NOTHING_TO_REFUND";
  readonly category = "conflict";
  constructor() {
    super("The order has no payment left to refund.");
  }
}

export class RefundExceedsPayment extends DomainError {
  readonly code = "REFUND_EXCEEDS_PAYMENT";
  readonly category = "invalid";
  constructor(refundable: number) {
    super(`At most ${refundable} (minor units) can still be refunded.`, [
      { path: "/amount", code: "REFUND_EXCEEDS_PAYMENT", message: `must be between 1 and ${refundable}` },
    ]);
  }
}

export function makeAdminOrders(deps: {
  orders: OrderRepository;
  gateways: Readonly<Record<PaymentGatewayName, PaymentGateway>>;
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
     * A full or partial refund through the order's gateway, against its payment. The refund is
     * recorded at once; what it means for delivery follows from the gateway's refund webhook.
     */
    async refund(orderId: string, amount: number | undefined) {
      const { order, payments } = await get(orderId);
      const payment = payments.find((p) => p.amount - p.refunded_amount > 0);
      if (!payment) throw new NothingToRefund();
      const refundable = payment.amount - payment.refunded_amount;
      const requested = amount ?? refundable;
      if (!Number.isInteger(requested) || requested < 1 || requested > refundable)
        throw new RefundExceedsPayment(refundable);
      const whole = requested === payment.amount && payment.refunded_amount === 0;
      const result = await deps.gateways[order.payment_gateway].refund(
        { payment_id: payment.payment_id, order_id: order.id, currency: payment.currency },
        whole ? null : requested,
      );
      await deps.orders.recordRefund({
        payment_id: payment.id,
        gateway_refund_id: result.refund_id,
        amount: requested,
        status: result.status,
      });
      return get(orderId);
    },
  };
}
