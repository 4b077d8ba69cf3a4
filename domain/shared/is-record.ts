/** A JSON object as parsed from untrusted input: its fields are still to be checked. */
export type JsonRecord = Readonly<Record<string, unknown>>;

/** True for a JSON object: not null, not an array. */
export const isRecord = (value: unknown): value is JsonRecord =>
  typeof value === "object" && value !== null && !Array.isArray(value);
