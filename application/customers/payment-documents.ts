import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import { OrderNotFound } from "../../domain/orders/errors.ts";
import type { OrderRepository } from "../checkout/ports.ts";
import type { PaymentGateway } from "../payments/ports.ts";
import { InvoiceNotAvailable, PaymentNotFound } from "./errors.ts";

/**
 * The gateway's own invoice or receipt for one payment of the customer's order, asked of the
 * gateway each time (Paddle's links expire after an hour). Another customer's order is not found.
 */
export function makePaymentDocuments(deps: {
  readonly orders: Pick<OrderRepository, "find">;
  readonly gateways: Readonly<Record<PaymentGatewayName, PaymentGateway>>;
}) {
  return async function paymentDocument(customerId: string, orderId: string, paymentId: string): Promise<string> {
    const details = await deps.orders.find(orderId);
    if (!details || details.order.customer_id !== customerId) throw new OrderNotFound();
    const payment = details.payments.find((candidate) => candidate.id === paymentId);
    if (!payment) throw new PaymentNotFound();
    const url = await deps.gateways[payment.gateway].paymentDocumentUrl({
      payment_id: payment.payment_id,
      invoice_id: payment.invoice_id,
      charge_id: payment.charge_id,
      payment_intent_id: payment.payment_intent_id,
    });
    if (!url) throw new InvoiceNotAvailable();
    return url;
  };
}
