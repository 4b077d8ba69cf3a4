import { Kind, type NumberOptions, type TInteger, type TSchema, Type, TypeRegistry } from "@sinclair/typebox";

/**
 * Integers as a client must send them in a JSON body: a JSON number. Elysia's `t.Integer` also
 * accepts the string "2" and converts it; a body field is never coerced from another type.
 */
export const Int = (options: NumberOptions = {}) => Type.Integer(options);

const QUERY_INTEGER = "QueryInteger";
const DIGITS = /^-?(0|[1-9][0-9]{0,14})$/;

/** A query string carries text: an integer there is written in digits, within the schema's bounds. */
function isQueryInteger(schema: NumberOptions, value: unknown): boolean {
  const number = typeof value === "string" && DIGITS.test(value) ? Number(value) : value;
  if (typeof number !== "number" || !Number.isInteger(number)) return false;
  if (typeof schema.minimum === "number" && number < schema.minimum) return false;
  return !(typeof schema.maximum === "number" && number > schema.maximum);
}

if (!TypeRegistry.Has(QUERY_INTEGER)) TypeRegistry.Set<NumberOptions>(QUERY_INTEGER, isQueryInteger);

/**
 * An integer query parameter, documented as `type: integer`. The whole check (digits and bounds)
 * runs as validation, so a refusal names the parameter (`/limit`); Elysia's `t.Integer` checks the
 * bounds while converting, where the field's name is already lost.
 */
export const QueryInt = (options: NumberOptions = {}): TInteger =>
  Type.Transform(Type.Unsafe<string | number>({ ...options, [Kind]: QUERY_INTEGER, type: "integer" }))
    .Decode((value) => Number(value))
    .Encode((value) => value) as unknown as TInteger;

/** True when a schema (or one nested in it) is a kind that converts strings to numbers or booleans. */
export function coercesStrings(schema: TSchema): boolean {
  if (schema.format === "integer" || schema.format === "numeric" || schema.format === "boolean") return true;
  return Object.values(schema).some(
    (value) =>
      value !== null &&
      typeof value === "object" &&
      (Array.isArray(value) ? value.some((item) => coercesStrings(item)) : coercesStrings(value as TSchema)),
  );
}
