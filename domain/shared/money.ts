/** Digits after the decimal point of a currency (2 for USD, 0 for JPY, 3 for KWD), from ISO 4217 via Intl. */
export function currencyExponent(currency: string): number {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** An amount in minor units as people read it: `4899, "USD"` is `48.99 USD`. */
export function formatMinorUnits(amount: number, currency: string): string {
  const exponent = currencyExponent(currency);
  return `${(amount / 10 ** exponent).toFixed(exponent)} ${currency}`;
}
