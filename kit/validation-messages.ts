import type { TSchema } from "@sinclair/typebox";
import { type ValueError, ValueErrorType } from "@sinclair/typebox/errors";
import { Value } from "@sinclair/typebox/value";
import type { ValidationError } from "elysia";
import type { ProblemField } from "./problem.ts";

/** Enough to fix a request; a body with thousands of wrong fields is not enumerated further. */
const MAX_FIELDS = 20;

/**
 * One error per field, under its JSON pointer, in words that say what is allowed
 * (`must be one of gateway_a, gateway_b`), read straight from the schema that refused it.
 */
export function fieldErrorsOf(error: ValidationError): ProblemField[] {
  const byPath = new Map<string, ProblemField>();
  for (const issue of valueErrors(error)) {
    const path = issue.path || "/";
    // The first error at a path is the most direct ("is required" before "must be a string").
    if (!byPath.has(path)) byPath.set(path, { path, code: "SCHEMA_VIOLATION", message: messageFor(issue) });
    if (byPath.size >= MAX_FIELDS) break;
  }
  return byPath.size > 0 ? [...byPath.values()] : [{ path: "/", code: "SCHEMA_VIOLATION", message: error.message }];
}

function valueErrors(error: ValidationError): Iterable<ValueError> {
  const validator = error.validator as { Errors?: (value: unknown) => Iterable<ValueError> };
  if (typeof validator.Errors === "function") return validator.Errors(error.value);
  return Value.Errors(error.validator as TSchema, error.value);
}

const A_TYPE: Record<string, string> = {
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "a boolean",
  object: "an object",
  array: "an array",
  null: "null",
};

/** A schema in a few words: a literal as itself, a type with an article. */
function describe(schema: TSchema): string {
  if (schema.const !== undefined) return String(schema.const);
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as TSchema[]).map(describe).join(" or ");
  return A_TYPE[String(schema.type)] ?? "a valid value";
}

function oneOfMessage(alternatives: readonly TSchema[]): string {
  if (alternatives.every((alternative) => alternative.const !== undefined)) {
    return `must be one of ${alternatives.map((alternative) => String(alternative.const)).join(", ")}`;
  }
  return `must be ${alternatives.map(describe).join(" or ")}`;
}

function boundsOf(schema: TSchema): string {
  const { minimum, maximum } = schema as { minimum?: number; maximum?: number };
  if (minimum !== undefined && maximum !== undefined) return ` from ${minimum} to ${maximum}`;
  if (minimum !== undefined) return ` of at least ${minimum}`;
  return maximum !== undefined ? ` of at most ${maximum}` : "";
}

function messageFor(issue: ValueError): string {
  const schema = issue.schema as TSchema & Record<string, unknown>;
  // JSON has no undefined: Elysia lists an absent field as an undefined one.
  if (issue.value === undefined) return "is required";
  switch (issue.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return "is required";
    case ValueErrorType.ObjectAdditionalProperties:
      return "is not an accepted field";
    case ValueErrorType.Union:
      return oneOfMessage((schema.anyOf as TSchema[] | undefined) ?? []);
    case ValueErrorType.Literal:
      return `must be ${String(schema.const)}`;
    case ValueErrorType.Kind:
      return `must be ${describe(schema)}${boundsOf(schema)}`;
    case ValueErrorType.String:
    case ValueErrorType.Integer:
    case ValueErrorType.Number:
    case ValueErrorType.Boolean:
    case ValueErrorType.Object:
    case ValueErrorType.Array:
    case ValueErrorType.Null:
      return `must be ${describe(schema)}`;
    case ValueErrorType.StringMinLength:
      return `must be at least ${schema.minLength} characters long`;
    case ValueErrorType.StringMaxLength:
      return `must be at most ${schema.maxLength} characters long`;
    case ValueErrorType.StringFormat:
      return `must be a valid ${schema.format}`;
    case ValueErrorType.StringPattern:
      return `must match the pattern ${schema.pattern}`;
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.NumberMinimum:
      return `must be at least ${schema.minimum}`;
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.NumberMaximum:
      return `must be at most ${schema.maximum}`;
    case ValueErrorType.IntegerExclusiveMinimum:
    case ValueErrorType.NumberExclusiveMinimum:
      return `must be greater than ${schema.exclusiveMinimum}`;
    case ValueErrorType.IntegerExclusiveMaximum:
    case ValueErrorType.NumberExclusiveMaximum:
      return `must be less than ${schema.exclusiveMaximum}`;
    case ValueErrorType.ArrayMinItems:
      return `must have at least ${schema.minItems} items`;
    case ValueErrorType.ArrayMaxItems:
      return `must have at most ${schema.maxItems} items`;
    case ValueErrorType.ArrayUniqueItems:
      return "must not repeat an item";
    case ValueErrorType.ObjectMinProperties:
      return `must have at least ${schema.minProperties} fields`;
    case ValueErrorType.ObjectMaxProperties:
      return `must have at most ${schema.maxProperties} fields`;
    default:
      return issue.message;
  }
}
