import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import { OrderNotFound } from "../../domain/orders/errors.ts";
import type { OrderRepository } from "../checkout/ports.ts";
import type { PaymentGateway } from "../payments/ports.ts";
import type { EmailedLinks } from "./emailed-links.ts";
import { InvoiceNotAvailable, LinkExpired, PaymentNotFound } from "./errors.ts";
import type { SignedLink } from "./ports.ts";

/** Who asks: the signed-in customer, or anyone holding an emailed link to this payment's invoice. */
export type DocumentReader = { readonly customerId: string } | { readonly link: SignedLink };

/** What an emailed invoice link signs: the order and the payment, nothing else of the order. */
const invoiceSubject = (orderId: string, paymentId: string) => `${orderId}.${paymentId}`;

/**
 * The gateway's own invoice or receipt for one payment of the customer's order, asked of the
 * gateway each time (Paddle's links expire after an hour). Another customer's order, or a wrong
 * access, is not found.
 */
export function makePaymentDocuments(deps: {
  readonly orders: Pick<OrderRepository, "find">;
  readonly gateways: Readonly<Record<PaymentGatewayName, PaymentGateway>>;
  /** The emailed invoice links' signing, keyed for this purpose alone. */
  readonly links: EmailedLinks;
}) {
  return async function paymentDocument(reader: DocumentReader, orderId: string, paymentId: string): Promise<string> {
    if ("link" in reader) {
      const checked = await deps.links.check(invoiceSubject(orderId, paymentId), reader.link);
      if (checked === "invalid") throw new OrderNotFound();
      if (checked === "expired") throw new LinkExpired();
    }
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

/** The link a renewal email carries to its payment's invoice: it works without signing in, until it expires. */
export function invoiceLink(links: EmailedLinks, orderId: string, paymentId: string): Promise<string> {
  const path = `/api/orders/${encodeURIComponent(orderId)}/payments/${encodeURIComponent(paymentId)}/invoice`;
  return links.make(path, invoiceSubject(orderId, paymentId));
}
