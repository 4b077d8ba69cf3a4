import { PaddleError } from "./errors.ts";
import type { Cycle, Interval, Json, Money } from "./model.ts";

const INTERVALS: readonly Interval[] = ["day", "week", "month", "year"];

/** Small readers for Paddle request bodies: each throws a 422 `invalid_field` naming the field. */
export function object(value: unknown, field: string): Json {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw PaddleError.invalidField(field, "must be an object");
  }
  return value as Json;
}

export function text(value: unknown, field: string): string {
  if (typeof value !== "string" || value.trim() === "" || value.length > 1000) {
    throw PaddleError.invalidField(field, "must be a non-empty string of at most 1000 characters");
  }
  return value;
}

export function optionalText(value: unknown, field: string): string | null {
  return value === undefined || value === null ? null : text(value, field);
}

export function customData(value: unknown, field: string): Json | null {
  return value === undefined || value === null ? null : object(value, field);
}

export function quantity(value: unknown, field: string): number {
  if (value === undefined) return 1;
  if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > 100) {
    throw PaddleError.invalidField(field, "must be an integer from 1 to 100");
  }
  return value as number;
}

export function amount(value: unknown, field: string): string {
  if (typeof value !== "string" || !/^(0|[1-9]\d{0,11})$/.test(value)) {
    throw PaddleError.invalidField(field, 'must be a string of minor units, e.g. "2900"');
  }
  return value;
}

export function currencyCode(value: unknown, field: string): string {
  if (typeof value !== "string" || !/^[A-Z]{3}$/.test(value)) {
    throw PaddleError.invalidField(field, "must be a three-letter upper-case ISO 4217 code");
  }
  return value;
}

export function money(value: unknown, field: string): Money {
  const body = object(value, field);
  return {
    amount: amount(body.amount, `${field}.amount`),
    currency_code: currencyCode(body.currency_code, `${field}.currency_code`),
  };
}

export function cycle(value: unknown, field: string): Cycle | null {
  if (value === undefined || value === null) return null;
  const body = object(value, field);
  if (!INTERVALS.includes(body.interval as Interval)) {
    throw PaddleError.invalidField(`${field}.interval`, `must be one of ${INTERVALS.join(", ")}`);
  }
  if (!Number.isInteger(body.frequency) || (body.frequency as number) < 1 || (body.frequency as number) > 365) {
    throw PaddleError.invalidField(`${field}.frequency`, "must be an integer from 1 to 365");
  }
  return { interval: body.interval as Interval, frequency: body.frequency as number };
}

export function oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[], fallback?: T): T {
  if (value === undefined && fallback !== undefined) return fallback;
  if (!allowed.includes(value as T)) throw PaddleError.invalidField(field, `must be one of ${allowed.join(", ")}`);
  return value as T;
}

export function list(value: unknown, field: string): unknown[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > 100) {
    throw PaddleError.invalidField(field, "must be a list of 1 to 100 entries");
  }
  return value;
}

/** Paddle refuses a body with a field it does not know (400 `invalid_field`), so a typo is not silently dropped. */
export function onlyKnown(body: Json, known: readonly string[], field?: string): Json {
  const unknown = Object.keys(body).filter((key) => !known.includes(key));
  if (unknown.length > 0) throw PaddleError.unknownFields(unknown.map((key) => (field ? `${field}.${key}` : key)));
  return body;
}

export function email(value: unknown, field: string): string {
  if (typeof value !== "string" || value.length > 320 || !/^[^\s@,<>"]+@[^\s@,<>"]+\.[^\s@,<>"]+$/.test(value)) {
    throw PaddleError.invalidField(field, "must be an email address");
  }
  return value;
}
