/**
 * HTTP byte ranges (RFC 9110 §14), one range at a time: what both the marketplace's download route
 * and the simulator's artifact mirror need.
 */

/** A range as asked, before the representation's size is known: `bytes=10-`, `bytes=10-19` or `bytes=-500`. */
export type RangeSpec =
  | { readonly kind: "from"; readonly start: number; readonly end?: number }
  | { readonly kind: "suffix"; readonly length: number };

/** Inclusive offsets into a representation of known size. */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

const DIGITS = /^\d{1,15}$/;

/**
 * The one range a `Range` header asks for, or undefined when the header is absent, not in the
 * `bytes` unit, malformed or names several ranges: a server may ignore such a header and send the
 * whole representation (RFC 9110 §14.2), which is what callers do.
 */
export function parseRangeHeader(header: string | null | undefined): RangeSpec | undefined {
  const match = /^bytes=([^,]*)$/i.exec(header?.trim() ?? "");
  const [first, last, extra] = (match?.[1]?.trim() ?? "").split("-");
  if (first === undefined || last === undefined || extra !== undefined) return undefined;
  if (first === "") return DIGITS.test(last) ? { kind: "suffix", length: Number(last) } : undefined;
  if (!DIGITS.test(first) || (last !== "" && !DIGITS.test(last))) return undefined;
  const start = Number(first);
  if (last === "") return { kind: "from", start };
  const end = Number(last);
  return end < start ? undefined : { kind: "from", start, end };
}

/** The bytes `spec` selects of a representation of `size` bytes, or undefined when none (416). */
export function resolveRange(spec: RangeSpec, size: number): ByteRange | undefined {
  if (spec.kind === "suffix") {
    if (spec.length === 0 || size === 0) return undefined;
    return { start: Math.max(0, size - spec.length), end: size - 1 };
  }
  if (spec.start >= size) return undefined;
  return { start: spec.start, end: Math.min(spec.end ?? size - 1, size - 1) };
}

/** The `Range` header that asks for `spec`. */
export function rangeHeader(spec: RangeSpec): string {
  return spec.kind === "suffix" ? `bytes=-${spec.length}` : `bytes=${spec.start}-${spec.end ?? ""}`;
}

/** `Content-Range` of a 206 (`bytes 0-99/1000`, or `/*` with the size unknown) or of a 416 (`bytes *\/1000`). */
export function contentRange(range: ByteRange | undefined, size: number | undefined): string {
  return `bytes ${range ? `${range.start}-${range.end}` : "*"}/${size ?? "*"}`;
}

/**
 * A `Content-Range` header read back: the range with the complete size if it was given, or only
 * the size (`bytes *\/1000`, as a 416 sends it). Undefined when it does not parse or says nonsense.
 */
export function parseContentRange(
  header: string | null,
): { readonly range?: ByteRange; readonly size?: number } | undefined {
  const match = /^bytes (?:(\d{1,15})-(\d{1,15})|\*)\/(\d{1,15}|\*)$/i.exec(header?.trim() ?? "");
  if (!match) return undefined;
  const [, first, last, total] = match;
  const size = total === "*" || total === undefined ? undefined : Number(total);
  if (first === undefined || last === undefined) return size === undefined ? undefined : { size };
  const range = { start: Number(first), end: Number(last) };
  if (range.end < range.start || (size !== undefined && range.end >= size)) return undefined;
  return size === undefined ? { range } : { range, size };
}

/** A `Content-Length` header as a byte count, or undefined when absent or not a plain number. */
export function parseContentLength(header: string | null): number | undefined {
  const value = header?.trim() ?? "";
  return DIGITS.test(value) ? Number(value) : undefined;
}
