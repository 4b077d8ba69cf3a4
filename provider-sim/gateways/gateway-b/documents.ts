import type { GatewayDocuments } from "../document-routes.ts";
import type { GatewayBBilling } from "./billing.ts";

/** The hosted invoice page (`hosted_invoice_url`) and a succeeded charge's receipt (`receipt_url`). */
export function gatewayBDocuments(billing: GatewayBBilling): GatewayDocuments {
  const invoice = (id: string) => {
    try {
      return billing.invoices.get(id);
    } catch {
      return undefined;
    }
  };
  const charge = (id: string) => billing.ledger.all().find((payment) => payment.charge === id);
  return {
    gateway: "gateway_b",
    find(kind, id) {
      if (kind === "invoices") {
        const found = invoice(id);
        return (
          found && {
            title: `Invoice ${found.number ?? found.id}`,
            number: found.number,
            amount: found.amount_due,
            currency: found.currency,
            paid: found.status === "paid",
            email: found.customer_email,
          }
        );
      }
      if (kind === "receipts") {
        const found = charge(id);
        if (found?.status !== "succeeded") return undefined;
        return {
          title: `Receipt for ${id}`,
          number: null,
          amount: found.amount,
          currency: found.currency,
          paid: true,
          email: null,
        };
      }
      return undefined;
    },
  };
}
