/**
 * Decimals of one major unit as the browser knows the currency (USD 2, JPY 0); 2 for a code it does
 * not know, as the server does, so an odd currency shows an amount instead of breaking the page.
 */
export function fractionDigits(currency: string): number {
  try {
    return currencyFormat(currency).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

const currencyFormat = (currency: string) =>
  new Intl.NumberFormat(undefined, { style: "currency", currency: currency.toUpperCase() });

/** Minor units as the currency shows them (`4900`, `USD` → `$49.00`). */
export function formatMoney(minor: number, currency: string): string {
  const major = minor / 10 ** fractionDigits(currency);
  try {
    return currencyFormat(currency).format(major);
  } catch {
    return `${major.toFixed(2)} ${currency.toUpperCase()}`;
  }
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** `awaiting_customer` → `awaiting customer`. */
export const humanize = (value: string) => value.replaceAll("_", " ");

/**
 * An address from the API that a link may point at: http(s) or a path on this site. Anything else
 * (a `javascript:` URL a compromised provider could hand us) is not linked.
 */
export function safeHref(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  // `//host` and `/\host` are other sites to a browser, not paths here.
  if (url.startsWith("/") && !url.startsWith("//") && !url.startsWith("/\\")) return url;
  try {
    const { protocol } = new URL(url);
    return protocol === "https:" || protocol === "http:" ? url : undefined;
  } catch {
    return undefined;
  }
}
