import type { FieldError } from "./domain-error.ts";

/**
 * Characters that steer how text is shown rather than being text: C0 and C1 controls, DEL, the
 * Unicode line and paragraph separators, and the bidirectional overrides and isolates that can
 * make a name read differently from what it holds.
 */
function isControl(code: number): boolean {
  return (
    code <= 0x1f ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

/** What a field error says about each kind of text. */
export const ONE_LINE_TEXT = "must be one line without control characters";
export const MULTI_LINE_TEXT = "must hold no control characters besides line breaks and tabs";

const LINE_BREAK_OR_TAB = new Set([0x09, 0x0a, 0x0d]);

function some(value: string, test: (code: number) => boolean): boolean {
  for (const char of value) if (test(char.codePointAt(0) ?? 0)) return true;
  return false;
}

/** True when a one-line value (a name, a title, a domain) holds a control character, a line break included. */
export function hasControlCharacters(value: string): boolean {
  return some(value, isControl);
}

/** True when multi-line text (a description) holds a control character other than a line break or tab. */
export function hasControlCharactersBesidesLines(value: string): boolean {
  return some(value, (code) => isControl(code) && !LINE_BREAK_OR_TAB.has(code));
}

/**
 * A value shown inside text a person acts on, kept on its one line: each control character is
 * written out as `\u{…}`, so what it held stays visible and cannot start a line of its own.
 */
export function asOneLine(value: string): string {
  let line = "";
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    line += isControl(code) ? `\\u{${code.toString(16)}}` : char;
  }
  return line;
}

/** A `CONTROL_CHARACTERS` field error for each text (by field name) that holds one; empty ones pass. */
export function controlCharacterErrors(
  texts: Readonly<Record<string, string | null | undefined>>,
  multiline = false,
): FieldError[] {
  return Object.entries(texts)
    .filter(([, text]) => text && (multiline ? hasControlCharactersBesidesLines(text) : hasControlCharacters(text)))
    .map(([field]) => ({
      path: `/${field}`,
      code: "CONTROL_CHARACTERS",
      message: multiline ? MULTI_LINE_TEXT : ONE_LINE_TEXT,
    }));
}
