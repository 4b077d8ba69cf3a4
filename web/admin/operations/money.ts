import { fractionDigits } from "../../shared/format.ts";

/** An amount written in major units, for the label's example: `12.50` in USD, `1250` in JPY. */
export const exampleAmount = (currency: string) =>
  (1250 / 10 ** fractionDigits(currency)).toFixed(fractionDigits(currency));

/** `12.5` or `12,50` in USD → 1250; undefined when the text is no amount with the currency's decimals at most. */
export function toMinorUnits(text: string, currency: string): number | undefined {
  const digits = fractionDigits(currency);
  const written = text.trim().replace(",", ".");
  const pattern = digits === 0 ? /^\d+$/ : new RegExp(`^\\d+(\\.\\d{1,${digits}})?$`);
  if (!pattern.test(written)) return undefined;
  const [whole = "0", fraction = ""] = written.split(".");
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, "0") || "0");
}
