import type { PaymentDocumentRef } from "../../../application/payments/ports.ts";
import { UpstreamBadResponse } from "../../../application/shared/errors.ts";
import { browserLink } from "../browser-link.ts";
import { createFieldReader } from "./stripe-fields.ts";
import type { StripeCall } from "./stripe-http.ts";

const read = createFieldReader((reason) => {
  throw new UpstreamBadResponse("gateway", reason);
});

/** A document link the customer's browser is sent to, or nothing. */
const webLink = (url: string | null) => (url === null ? undefined : browserLink(url, "a document link"));

const path = (collection: string, id: string) => `/v1/${collection}/${encodeURIComponent(id)}`;

/**
 * A payment's document at Stripe: a subscription payment's invoice (its hosted page, else its
 * PDF), and for any other payment the receipt of its charge (the intent's latest charge when the
 * charge is not known).
 */
export async function stripePaymentDocument(
  send: (call: StripeCall) => Promise<unknown>,
  payment: PaymentDocumentRef,
): Promise<string | undefined> {
  if (payment.invoice_id) {
    const invoice = read.record(
      await send({ method: "GET", path: path("invoices", payment.invoice_id) }),
      "the invoice",
    );
    const link = read.optionalString(invoice, "hosted_invoice_url") ?? read.optionalString(invoice, "invoice_pdf");
    if (link) return webLink(link);
  }
  let chargeId = payment.charge_id;
  const intentId = payment.payment_intent_id ?? (payment.payment_id.startsWith("pi_") ? payment.payment_id : null);
  if (!chargeId && intentId) {
    const intent = read.record(await send({ method: "GET", path: path("payment_intents", intentId) }), "the intent");
    chargeId = read.optionalId(intent, "latest_charge");
  }
  if (!chargeId) return undefined;
  const charge = read.record(await send({ method: "GET", path: path("charges", chargeId) }), "the charge");
  return webLink(read.optionalString(charge, "receipt_url"));
}
