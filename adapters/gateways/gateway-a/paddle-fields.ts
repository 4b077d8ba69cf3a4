import type { JsonRecord } from "../../../domain/shared/is-record.ts";

export type JsonObject = JsonRecord;

/** Paddle writes amounts as strings of minor units (`"2900"`); anything else is not an amount. */
export function minorUnits(value: unknown): number | undefined {
  if (typeof value !== "string" || !/^\d{1,15}$/.test(value)) return undefined;
  return Number(value);
}

export function stringOrNull(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/** `value` when it is absent, null or a string; `undefined` flags a field of the wrong type. */
export function nullableString(value: unknown): string | null | undefined {
  if (value === undefined || value === null) return null;
  return typeof value === "string" ? value : undefined;
}
