import { Elysia, t } from "elysia";
import { formatMoney } from "./checkout-page.ts";

/** What a gateway's invoice or receipt page says: whose, how much, and when it was paid. */
export interface DocumentView {
  readonly title: string;
  readonly number: string | null;
  readonly amount: number;
  readonly currency: string;
  readonly paid: boolean;
  readonly email: string | null;
}

/**
 * The documents a sandbox links to: Stripe's hosted invoice and receipt pages, Paddle's invoice
 * link (which expires after an hour, as Paddle's does). `find` answers undefined for an unknown,
 * or an expired, document.
 */
export interface GatewayDocuments {
  readonly gateway: "gateway_a" | "gateway_b";
  find(kind: string, id: string, query: Readonly<Record<string, string | undefined>>): DocumentView | undefined;
}

const html = (value: string) => Bun.escapeHTML(value);

function render(view: DocumentView): string {
  const rows = [
    ["Number", view.number ?? "—"],
    ["Billed to", view.email ?? "—"],
    ["Amount", formatMoney(view.amount, view.currency)],
    ["Status", view.paid ? "Paid" : "Unpaid"],
  ]
    .map(([label, value]) => `<tr><th scope="row">${html(label ?? "")}</th><td>${html(value ?? "")}</td></tr>`)
    .join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${html(view.title)}</title></head><body><h1>${html(view.title)}</h1><table>${rows}</table></body></html>`;
}

/** `/documents/<gateway>/<kind>/<id>`: the page a gateway's document link opens. */
export function createDocumentRoutes(documents: GatewayDocuments) {
  return new Elysia().get(
    `/documents/${documents.gateway}/:kind/:id`,
    ({ params, query, set }) => {
      const view = documents.find(params.kind, params.id, query);
      set.headers["content-type"] = "text/html; charset=utf-8";
      if (!view) {
        set.status = 404;
        return '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><p>No such document, or its link has expired.</p></body></html>';
      }
      return render(view);
    },
    {
      params: t.Object({ kind: t.String({ maxLength: 20 }), id: t.String({ maxLength: 100 }) }),
      query: t.Record(t.String(), t.String()),
    },
  );
}
