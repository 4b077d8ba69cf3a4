import type { GatewayName } from "./webhook-deliverer.ts";

export interface CheckoutPageLine {
  readonly name: string;
  readonly quantity: number;
  /** Minor units due now for this line. */
  readonly amount: number;
  /** E.g. "then 29.00 USD every month after a 14-day trial". */
  readonly note: string | null;
}

/** What a hosted checkout page shows; every string is escaped when rendered. */
export interface CheckoutView {
  readonly gateway: GatewayName;
  readonly id: string;
  readonly reference: string | null;
  readonly lines: readonly CheckoutPageLine[];
  readonly total: number;
  readonly currency: string;
  readonly paid: boolean;
  /** Closed unpaid (expired, or cancelled by the merchant): it can no longer be paid. */
  readonly expired: boolean;
  readonly successUrl: string | null;
  readonly cancelUrl: string | null;
}

const LABELS: Record<GatewayName, string> = {
  gateway_a: "Gateway A (Paddle sandbox)",
  gateway_b: "Gateway B (Stripe sandbox)",
};
const html = (value: string | number) => Bun.escapeHTML(String(value));

/** `2900, "usd"` → "29.00 USD", honouring the currency's minor unit. */
export function formatMoney(amount: number, currency: string): string {
  const code = currency.toUpperCase();
  let digits = 2;
  try {
    digits =
      new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    // An unknown code keeps two decimals.
  }
  return `${(amount / 10 ** digits).toFixed(digits)} ${code}`;
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${html(title)}</title></head><body>${body}</body></html>`;
}

function linesTable(view: CheckoutView): string {
  const rows = view.lines.map(
    (line) =>
      `<tr><td>${html(line.name)}${line.note ? `<br><small>${html(line.note)}</small>` : ""}</td><td>${html(line.quantity)}</td><td>${html(formatMoney(line.amount, view.currency))}</td></tr>`,
  );
  return `<table><thead><tr><th>Item</th><th>Qty</th><th>Due now</th></tr></thead><tbody>${rows.join("")}</tbody><tfoot><tr><th colspan="2">Total</th><th id="total">${html(formatMoney(view.total, view.currency))}</th></tr></tfoot></table>`;
}

function heading(view: CheckoutView): string {
  const reference = view.reference ? `<p>Order ${html(view.reference)}</p>` : "";
  return `<h1>${html(LABELS[view.gateway])}</h1><p>Checkout ${html(view.id)}</p>${reference}`;
}

/** The hosted page: the lines, the total and a Pay button posting back to the same path. */
export function renderCheckoutPage(view: CheckoutView): string {
  const action = `/checkout/${view.gateway}/${encodeURIComponent(view.id)}`;
  const cancel = view.cancelUrl ? ` <a href="${html(view.cancelUrl)}">Cancel</a>` : "";
  const footer = view.paid
    ? `<p id="status">Already paid.</p>`
    : view.expired
      ? `<p id="status">This checkout has expired.</p>`
      : `<form method="post" action="${html(action)}"><button type="submit">Pay</button>${cancel}</form>`;
  return page(`Checkout ${view.id}`, `${heading(view)}${linesTable(view)}${footer}`);
}

/** What the customer sees after paying when the checkout has no success URL, or when paying again. */
export function renderReceiptPage(view: CheckoutView, message: string): string {
  const back = view.successUrl ? `<p><a href="${html(view.successUrl)}">Continue</a></p>` : "";
  return page(`Receipt ${view.id}`, `${heading(view)}${linesTable(view)}<p id="status">${html(message)}</p>${back}`);
}
