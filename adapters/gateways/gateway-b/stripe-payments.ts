import type { ResolvedPayment } from "../../../application/payments/ports.ts";
import { UpstreamBadResponse } from "../../../application/shared/errors.ts";
import type { PaymentPointer } from "../../../domain/payments/gateway-event.ts";
import { isRecord } from "../../../domain/shared/is-record.ts";
import { createFieldReader, type Fields } from "./stripe-fields.ts";
import type { StripeCall } from "./stripe-http.ts";

const read = createFieldReader((reason) => {
  throw new UpstreamBadResponse("gateway", reason);
});

const complete = (pointer: PaymentPointer, payment_id: string, found: Partial<ResolvedPayment> = {}) => ({
  payment_id,
  payment_intent_id: found.payment_intent_id ?? pointer.payment_intent_id ?? null,
  charge_id: found.charge_id ?? pointer.charge_id ?? null,
  invoice_id: found.invoice_id ?? pointer.invoice_id ?? null,
});

/**
 * An invoice's payment: current API versions list it under `payments` (expanded), each entry's
 * `payment` naming a `payment_intent` (or a `charge`); older versions name `payment_intent` and
 * `charge` on the invoice itself. An invoice with nothing to pay (a trial) has no payment at all.
 */
function invoicePayment(invoice: Fields): { payment_intent_id: string | null; charge_id: string | null } {
  const entries = isRecord(invoice.payments) && Array.isArray(invoice.payments.data) ? invoice.payments.data : [];
  const payments = entries.filter(isRecord);
  const paid = payments.find((entry) => entry.status === "paid") ?? payments[0];
  const payment = paid && isRecord(paid.payment) ? paid.payment : undefined;
  if (payment) {
    return {
      payment_intent_id: read.optionalId(payment, "payment_intent"),
      charge_id: read.optionalId(payment, "charge"),
    };
  }
  return {
    payment_intent_id: read.optionalId(invoice, "payment_intent"),
    charge_id: read.optionalId(invoice, "charge"),
  };
}

/**
 * Completes what an event says of a payment. A payment intent is the payment (refunds are made
 * against it); an invoice or a charge alone is looked up at Stripe to find it.
 */
export async function resolveStripePayment(
  send: (call: StripeCall) => Promise<unknown>,
  pointer: PaymentPointer,
): Promise<ResolvedPayment> {
  if (pointer.payment_id) return complete(pointer, pointer.payment_id);
  if (pointer.invoice_id) {
    const path = `/v1/invoices/${encodeURIComponent(pointer.invoice_id)}?expand[]=payments`;
    const invoice = read.record(await send({ method: "GET", path }), "the invoice");
    const found = invoicePayment(invoice);
    return complete(pointer, found.payment_intent_id ?? pointer.invoice_id, found);
  }
  if (pointer.charge_id) {
    const charge = read.record(
      await send({ method: "GET", path: `/v1/charges/${encodeURIComponent(pointer.charge_id)}` }),
      "the charge",
    );
    const intent = read.optionalId(charge, "payment_intent");
    return complete(pointer, intent ?? pointer.charge_id, { payment_intent_id: intent });
  }
  throw new UpstreamBadResponse("gateway", "the event names no payment");
}
