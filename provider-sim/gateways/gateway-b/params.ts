import type { FormObject, FormValue } from "../form-body.ts";
import { StripeError } from "./errors.ts";

type Param = FormValue | undefined;

/** Readers for Stripe form parameters: each throws a 400 naming the parameter in bracket notation. */
export function optionalString(value: Param, param: string, max = 5000): string | null {
  if (value === undefined || value === "") return null;
  if (typeof value !== "string") throw StripeError.invalid(param, "expected a string");
  if (value.length > max) throw StripeError.invalid(param, `must be at most ${max} characters`);
  return value;
}

export function requiredString(value: Param, param: string, max?: number): string {
  const found = optionalString(value, param, max);
  if (found === null) throw StripeError.missing(param);
  return found;
}

export function optionalInteger(value: Param, param: string, min: number, max: number): number | null {
  const raw = optionalString(value, param);
  if (raw === null) return null;
  const parsed = Number(raw);
  if (!/^-?\d+$/.test(raw) || parsed < min || parsed > max) {
    throw StripeError.invalid(param, `must be an integer from ${min} to ${max}`, "parameter_invalid_integer");
  }
  return parsed;
}

export function requiredInteger(value: Param, param: string, min: number, max: number): number {
  const found = optionalInteger(value, param, min, max);
  if (found === null) throw StripeError.missing(param);
  return found;
}

export function optionalBoolean(value: Param, param: string): boolean | null {
  const raw = optionalString(value, param);
  if (raw === null) return null;
  if (raw !== "true" && raw !== "false") throw StripeError.invalid(param, "must be true or false");
  return raw === "true";
}

export function optionalHash(value: Param, param: string): FormObject | null {
  if (value === undefined) return null;
  if (typeof value !== "object" || Array.isArray(value)) throw StripeError.invalid(param, "expected a hash");
  return value;
}

export function requiredList(value: Param, param: string): FormValue[] {
  if (value === undefined) throw StripeError.missing(param);
  if (!Array.isArray(value) || value.length === 0 || value.length > 100) {
    throw StripeError.invalid(param, "expected a list of 1 to 100 entries");
  }
  return value;
}

export function metadata(value: Param, param: string): Record<string, string> {
  const hash = optionalHash(value, param) ?? {};
  const entries = Object.entries(hash);
  if (entries.length > 50) throw StripeError.invalid(param, "may hold at most 50 keys");
  return Object.fromEntries(entries.map(([key, item]) => [key, requiredString(item, `${param}[${key}]`, 500)]));
}

export function currency(value: Param, param: string): string {
  const code = requiredString(value, param);
  if (!/^[A-Za-z]{3}$/.test(code)) throw StripeError.invalid(param, "must be a three-letter ISO currency code");
  return code.toLowerCase();
}

export function oneOf<T extends string>(value: Param, param: string, allowed: readonly T[]): T {
  const raw = requiredString(value, param);
  if (!allowed.includes(raw as T)) throw StripeError.invalid(param, `must be one of ${allowed.join(", ")}`);
  return raw as T;
}

/** Stripe refuses parameters it does not know, e.g. `unit_amount` on a price update. */
export function rejectUnknown(form: FormObject, allowed: readonly string[]): void {
  const unknown = Object.keys(form).find((key) => !allowed.includes(key));
  if (unknown !== undefined) {
    throw new StripeError(
      400,
      "invalid_request_error",
      `Received unknown parameter: ${unknown}`,
      "parameter_unknown",
      unknown,
    );
  }
}
