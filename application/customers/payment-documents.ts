import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import { OrderNotFound } from "../../domain/orders/errors.ts";
import type { OrderAccess, OrderRepository } from "../checkout/ports.ts";
import type { PaymentGateway } from "../payments/ports.ts";
import { InvoiceNotAvailable, PaymentNotFound } from "./errors.ts";

/** Who asks: the signed-in customer, or anyone holding the order's signed access (an emailed link). */
export type DocumentReader = { readonly customerId: string } | { readonly access: string };

/**
 * The gateway's own invoice or receipt for one payment of the customer's order, asked of the
 * gateway each time (Paddle's links expire after an hour). Another customer's order, or a wrong
 * access, is not found.
 */
export function makePaymentDocuments(deps: {
  readonly orders: Pick<OrderRepository, "find">;
  readonly gateways: Readonly<Record<PaymentGatewayName, PaymentGateway>>;
  readonly access: OrderAccess;
}) {
  return async function paymentDocument(reader: DocumentReader, orderId: string, paymentId: string): Promise<string> {
    if ("access" in reader && !(await deps.access.verify(orderId, reader.access))) throw new OrderNotFound();
    const details = await deps.orders.find(orderId);
    if (!details || ("customerId" in reader && details.order.customer_id !== reader.customerId)) {
      throw new OrderNotFound();
    }
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
