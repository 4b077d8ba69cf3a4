import { Elysia } from "elysia";
import type { createSandboxHandler } from "../sandbox-handler.ts";
import { optionalString } from "./params.ts";
import { chargeObject, paymentIntentObject } from "./payments.ts";
import type { GatewayBSandbox } from "./sandbox.ts";

type Handle = ReturnType<typeof createSandboxHandler>;

const list = <T>(url: string, data: readonly T[]) => ({ object: "list" as const, data, has_more: false, url });

/** `expand[]=payments` or `expand[0]=payments`, as the SDKs write it. */
export function expands(request: Request, field: string): boolean {
  const query = new URL(request.url).searchParams;
  return [...query].some(([key, value]) => /^expand(\[\d*\])?$/.test(key) && value === field);
}

/** The read side of payments: invoices and their payments, intents, charges, disputes and the balance. */
export function createGatewayBBillingRoutes(sandbox: GatewayBSandbox, handle: Handle) {
  const { billing, disputes } = sandbox;
  return new Elysia()
    .get(
      "/invoices/:id",
      handle(({ params, request }) => {
        const invoice = billing.invoices.get(params.id as string);
        const discounts = expands(request, "discounts") ? invoice.discounts.map(billing.discount) : invoice.discounts;
        if (!expands(request, "payments")) return { ...invoice, discounts };
        const payments = list("/v1/invoice_payments", billing.invoices.paymentsOf(invoice.id));
        return { ...invoice, discounts, payments };
      }),
    )
    .get(
      "/invoice_payments",
      handle(({ query }) => {
        const invoice = optionalString(query.invoice, "invoice");
        if (invoice !== null) billing.invoices.get(invoice, "invoice");
        const found = invoice === null ? [] : billing.invoices.paymentsOf(invoice);
        return list("/v1/invoice_payments", found);
      }),
    )
    .get(
      "/invoice_payments/:id",
      handle(({ params }) => billing.invoices.invoicePayment(params.id as string)),
    )
    .get(
      "/payment_intents/:id",
      handle(({ params }) => paymentIntentObject(billing.ledger.intent(params.id as string))),
    )
    .get(
      "/charges/:id",
      handle(({ params }) => chargeObject(billing.ledger.charge(params.id as string))),
    )
    .get(
      "/disputes/:id",
      handle(({ params }) => disputes.get(params.id as string)),
    )
    .get(
      "/balance",
      handle(() => {
        const available = new Map<string, number>();
        for (const payment of billing.ledger.all()) {
          if (payment.status !== "succeeded") continue;
          available.set(payment.currency, (available.get(payment.currency) ?? 0) + payment.amount - payment.refunded);
        }
        if (available.size === 0) available.set("usd", 0);
        const funds = [...available].map(([currency, amount]) => ({
          amount,
          currency,
          source_types: { card: amount },
        }));
        return {
          object: "balance",
          available: funds,
          pending: funds.map(({ currency }) => ({ amount: 0, currency, source_types: { card: 0 } })),
          livemode: false,
        };
      }),
    );
}
