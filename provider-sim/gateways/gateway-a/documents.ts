import type { SimClock } from "../../clock.ts";
import type { GatewayDocuments } from "../document-routes.ts";
import type { GatewayABilling } from "./billing.ts";
import { PaddleError } from "./errors.ts";

/** Paddle's invoice links stop working an hour after they are made. */
const LINK_LIFETIME_S = 3600;

/**
 * `GET /transactions/{id}/invoice`: a link to the transaction's invoice, for a completed
 * transaction of some value only, that expires after an hour; and the page it opens.
 */
export function createGatewayAInvoices(deps: {
  readonly billing: GatewayABilling;
  readonly clock: SimClock;
  /** `<simulator>/documents/gateway_a` */
  readonly documentsUrl: string;
}) {
  const nowSeconds = () => Math.floor(deps.clock.now().getTime() / 1000);
  const invoiceable = (id: string) => {
    const found = deps.billing.transaction(id);
    if (found.status !== "completed") {
      throw new PaddleError(
        400,
        "transaction_invoice_not_available",
        `An invoice is available for a completed transaction only; ${id} is ${found.status}.`,
        "request_error",
        { section: "transactions" },
      );
    }
    if (Number(found.details.totals.grand_total) === 0) {
      throw new PaddleError(
        400,
        "transaction_invoice_not_available",
        "Invoices are not available for zero-value transactions.",
        "request_error",
        { section: "transactions" },
      );
    }
    return found;
  };
  const documents: GatewayDocuments = {
    gateway: "gateway_a",
    find(kind, id, query) {
      if (kind !== "invoices" || Number(query.expires ?? 0) < nowSeconds()) return undefined;
      const found = deps.billing.findTransaction(id);
      if (found?.status !== "completed") return undefined;
      return {
        title: `Invoice ${found.invoice_number ?? found.id}`,
        number: found.invoice_number,
        amount: Number(found.details.totals.grand_total),
        currency: found.currency_code,
        paid: true,
        email: null,
      };
    },
  };
  return {
    documents,
    link(id: string, disposition: string | undefined): { url: string } {
      invoiceable(id);
      if (disposition !== undefined && disposition !== "attachment" && disposition !== "inline") {
        throw PaddleError.invalidField("disposition", "must be one of attachment or inline");
      }
      const expires = nowSeconds() + LINK_LIFETIME_S;
      return {
        url: `${deps.documentsUrl}/invoices/${id}?disposition=${disposition ?? "attachment"}&expires=${expires}`,
      };
    },
  };
}
