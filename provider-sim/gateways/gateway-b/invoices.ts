import { newGatewayId } from "../ids.ts";
import { StripeError } from "./errors.ts";
import type { StripeInvoice } from "./invoice-object.ts";
import type { Payment } from "./payment-model.ts";

/** Links an invoice to the payment intent that pays it: `GET /v1/invoice_payments?invoice=in_...`. */
export interface InvoicePayment {
  readonly id: string;
  readonly object: "invoice_payment";
  readonly amount_paid: number | null;
  readonly amount_requested: number;
  readonly created: number;
  readonly currency: string;
  readonly invoice: string;
  readonly is_default: true;
  readonly livemode: false;
  readonly payment: { readonly type: "payment_intent"; readonly payment_intent: string };
  readonly status: "open" | "paid";
  readonly status_transitions: { readonly canceled_at: null; readonly paid_at: number | null };
}

export type InvoiceBook = ReturnType<typeof createInvoiceBook>;

/**
 * The sandbox's subscription invoices and their invoice payments, in creation order. A finalized
 * invoice's hosted page is served under `documentsUrl`.
 */
export function createInvoiceBook(documentsUrl: string) {
  const invoices = new Map<string, StripeInvoice>();
  const payments = new Map<string, InvoicePayment>();

  function get(id: string, param = "id"): StripeInvoice {
    const found = invoices.get(id);
    if (!found) throw StripeError.noSuch("invoice", id, param);
    return found;
  }

  function paid(invoice: StripeInvoice, at: number): StripeInvoice {
    return {
      ...invoice,
      amount_paid: invoice.amount_due,
      amount_remaining: 0,
      status: "paid",
      status_transitions: { ...invoice.status_transitions, paid_at: at },
    };
  }

  return {
    get,
    add(invoice: StripeInvoice): StripeInvoice {
      const numbered = {
        ...invoice,
        number: `SANDBOX-${String(invoices.size + 1).padStart(4, "0")}`,
        hosted_invoice_url: `${documentsUrl}/invoices/${invoice.id}`,
      };
      invoices.set(numbered.id, numbered);
      return numbered;
    },
    /** The unpaid invoice a past-due subscription owes, if any. */
    openFor: (subscription: string) =>
      [...invoices.values()].find(
        (invoice) => invoice.status === "open" && invoice.parent.subscription_details.subscription === subscription,
      ),
    /** Applies one attempt at paying `invoiceId` with `payment`; a $0 invoice is paid with none. */
    attempt(invoiceId: string, payment: Payment | undefined, at: number) {
      const invoice = get(invoiceId);
      if (!payment) {
        const settled = paid(invoice, at);
        invoices.set(invoiceId, settled);
        return { invoice: settled, invoicePayment: undefined };
      }
      const succeeded = payment.status === "succeeded";
      const existing = [...payments.values()].find((entry) => entry.payment.payment_intent === payment.id);
      const invoicePayment: InvoicePayment = {
        id: existing?.id ?? newGatewayId("inpay"),
        object: "invoice_payment",
        amount_paid: succeeded ? payment.amount : null,
        amount_requested: payment.amount,
        created: existing?.created ?? at,
        currency: payment.currency,
        invoice: invoiceId,
        is_default: true,
        livemode: false,
        payment: { type: "payment_intent", payment_intent: payment.id },
        status: succeeded ? "paid" : "open",
        status_transitions: { canceled_at: null, paid_at: succeeded ? at : null },
      };
      payments.set(invoicePayment.id, invoicePayment);
      const attempted = { ...invoice, attempted: true, attempt_count: invoice.attempt_count + 1 };
      const updated = succeeded ? paid(attempted, at) : attempted;
      invoices.set(invoiceId, updated);
      return { invoice: updated, invoicePayment };
    },
    paymentsOf: (invoiceId: string) => [...payments.values()].filter((entry) => entry.invoice === invoiceId),
    invoicePayment(id: string): InvoicePayment {
      const found = payments.get(id);
      if (!found) throw StripeError.noSuch("invoice_payment", id);
      return found;
    },
    clear() {
      invoices.clear();
      payments.clear();
    },
  };
}
