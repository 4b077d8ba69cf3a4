/**
 * RFC 4180 records, with text defused against formula injection (OWASP "CSV Injection"). Pure:
 * strings in, strings out, so that every export writes cells the same way.
 */

/** What a cell may hold: text from anyone, or a value this server wrote. */
export type CsvValue = string | number | boolean | Date | null;

/** The characters a spreadsheet reads as the start of a formula (or, CR and tab, may skip to one). */
export const FORMULA_TRIGGERS: readonly string[] = ["=", "+", "-", "@", "\t", "\r"];

/** A field holding any of these must be quoted (RFC 4180, 2.6). */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * Text that could start a formula, with a single quote in front: a spreadsheet shows the text as
 * it was and runs nothing. Only text is defused; numbers are ours (see `csvField`).
 */
export function defused(text: string): string {
  return FORMULA_TRIGGERS.some((trigger) => text.startsWith(trigger)) ? `'${text}` : text;
}

/**
 * One field. Text is defused, then quoted when it holds a comma, a quote, CR or LF, its quotes
 * doubled. A number is written as the number it is, never prefixed, so a money column stays numeric
 * in a spreadsheet; only this server's integers reach here as numbers, never a customer's text.
 * Times are ISO 8601 in UTC, null an empty field.
 */
export function csvField(value: CsvValue): string {
  if (value === null) return "";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new RangeError(`a CSV number must be finite, got ${value}`);
    return String(value);
  }
  if (typeof value === "boolean") return value ? "true" : "false";
  if (value instanceof Date) return value.toISOString();
  const text = defused(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, CRLF-terminated (RFC 4180, 2.1). */
export function csvRecord(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}
