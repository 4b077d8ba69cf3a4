import type { FieldError } from "../shared/domain-error.ts";
import { ValidationFailed } from "../shared/errors.ts";
import { isHttpUrl, MAX_URL_LENGTH } from "../shared/http-url.ts";
import { isRecord } from "../shared/is-record.ts";
import {
  hasControlCharacters,
  hasControlCharactersBesidesLines,
  MULTI_LINE_TEXT,
  ONE_LINE_TEXT,
} from "../shared/plain-text.ts";

/**
 * A small declarative description of a JSON object's fields. One description yields both the
 * validator the domain runs and the JSON Schema the admin form uses for its hints, so the two
 * cannot drift apart.
 */
export type FieldKind =
  | { readonly kind: "url" }
  | { readonly kind: "path"; readonly placeholders?: readonly string[]; readonly requiredPlaceholder?: string }
  | { readonly kind: "reference" }
  /** One line unless `multiline`; control characters (line breaks aside when multi-line) are refused. */
  | { readonly kind: "text"; readonly maxLength: number; readonly multiline?: boolean }
  | { readonly kind: "enum"; readonly values: readonly string[] }
  | { readonly kind: "integer"; readonly min: number; readonly max: number }
  | { readonly kind: "boolean" }
  | { readonly kind: "object"; readonly fields: ObjectSpec };

export type FieldSpec = FieldKind & { readonly required: boolean; readonly description: string };
export type ObjectSpec = Readonly<Record<string, FieldSpec>>;

const PATH_PATTERN = /^\/(?:[A-Za-z0-9._~-]+|\{[a-z_]+\})(?:\/(?:[A-Za-z0-9._~-]+|\{[a-z_]+\}))*\/?$/;
/** The name of a stored secret: what a `*_ref` field holds instead of the secret itself. */
export const REFERENCE_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
/** Key names that would carry a secret inline instead of naming one. */
const SECRET_KEY =
  /token|secret|password|passwd|api[_-]?key|private[_-]?key|authorization|bearer|credential(?!s_ref$)/i;
/** Values shaped like well-known secrets: a reference must be a name, never the thing itself. */
const SECRET_VALUE = /^(sk|rk|pk)_(live|test)_|^whsec_|^pdl_|^eyJ[A-Za-z0-9_-]+\.|^Bearer\s/i;

export function isSecretLikeKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

function checkField(spec: FieldSpec, value: unknown, path: string): FieldError[] {
  const fail = (code: string, message: string): FieldError[] => [{ path, code, message }];
  switch (spec.kind) {
    case "url":
      if (typeof value !== "string" || value.length > MAX_URL_LENGTH || !isHttpUrl(value)) {
        return fail("INVALID_URL", "must be an absolute http(s) URL without credentials");
      }
      return [];
    case "path": {
      if (typeof value !== "string" || value.length > 512 || !PATH_PATTERN.test(value) || value.includes("..")) {
        return fail("INVALID_PATH", "must be an absolute path such as /api/marketplace/onboard");
      }
      const used = [...value.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1] ?? "");
      const unknown = used.filter((name) => !(spec.placeholders ?? []).includes(name));
      if (unknown.length > 0) return fail("UNKNOWN_PLACEHOLDER", `placeholder {${unknown[0]}} is not supported here`);
      if (spec.requiredPlaceholder && !used.includes(spec.requiredPlaceholder)) {
        return fail("MISSING_PLACEHOLDER", `must contain {${spec.requiredPlaceholder}}`);
      }
      return [];
    }
    case "reference":
      if (typeof value !== "string" || !REFERENCE_PATTERN.test(value) || SECRET_VALUE.test(value)) {
        return fail(
          "INVALID_REFERENCE",
          "must be the name of a stored secret (letters, digits, _ . -), never a secret",
        );
      }
      return [];
    case "text":
      if (typeof value !== "string" || value.trim() === "" || value.length > spec.maxLength) {
        return fail("INVALID_TEXT", `must be a non-empty string of at most ${spec.maxLength} characters`);
      }
      if (spec.multiline ? hasControlCharactersBesidesLines(value) : hasControlCharacters(value)) {
        return fail("CONTROL_CHARACTERS", spec.multiline ? MULTI_LINE_TEXT : ONE_LINE_TEXT);
      }
      return [];
    case "enum":
      if (typeof value !== "string" || !spec.values.includes(value)) {
        return fail("INVALID_ENUM", `must be one of ${spec.values.join(", ")}`);
      }
      return [];
    case "integer":
      if (typeof value !== "number" || !Number.isInteger(value) || value < spec.min || value > spec.max) {
        return fail("OUT_OF_RANGE", `must be an integer from ${spec.min} to ${spec.max}`);
      }
      return [];
    case "boolean":
      return typeof value === "boolean" ? [] : fail("INVALID_BOOLEAN", "must be true or false");
    case "object":
      return validateObject(spec.fields, value, path);
  }
}

/** Every problem of `value` against `spec`, each with its JSON-pointer path and a stable code. */
export function validateObject(spec: ObjectSpec, value: unknown, path: string): FieldError[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return [{ path, code: "INVALID_OBJECT", message: "must be a JSON object" }];
  }
  const record = value as Record<string, unknown>;
  const errors: FieldError[] = [];
  for (const key of Object.keys(record)) {
    if (isSecretLikeKey(key)) {
      errors.push({
        path: `${path}/${key}`,
        code: "SECRET_NOT_ALLOWED",
        message: "secrets are never stored in configuration; store the secret and reference it by credentials_ref",
      });
    } else if (!(key in spec)) {
      errors.push({ path: `${path}/${key}`, code: "UNKNOWN_KEY", message: "is not a known key for this driver" });
    }
  }
  for (const [key, field] of Object.entries(spec)) {
    const present = record[key] !== undefined && record[key] !== null;
    if (!present) {
      if (field.required) errors.push({ path: `${path}/${key}`, code: "REQUIRED", message: "is required" });
      continue;
    }
    errors.push(...checkField(field, record[key], `${path}/${key}`));
  }
  return errors;
}

/** The value a field holds once `validateObject` accepted it. */
type FieldValue<F extends FieldSpec> = F extends { readonly kind: "integer" }
  ? number
  : F extends { readonly kind: "boolean" }
    ? boolean
    : F extends { readonly kind: "enum"; readonly values: readonly (infer V)[] }
      ? V
      : F extends { readonly kind: "object"; readonly fields: infer S extends ObjectSpec }
        ? ObjectOf<S>
        : string;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * The object a spec describes, as a type: its required fields present, the others optional. Written
 * for a spec declared `as const`, so the type follows every change of the spec.
 */
export type ObjectOf<S extends ObjectSpec> = Simplify<
  { readonly [K in keyof S as S[K]["required"] extends true ? K : never]: FieldValue<S[K]> } & {
    readonly [K in keyof S as S[K]["required"] extends true ? never : K]?: FieldValue<S[K]>;
  }
>;

/** Refuses `value` with every problem `validateObject` finds; past it, `value` has the spec's type. */
export function assertObject<S extends ObjectSpec>(
  spec: S,
  value: unknown,
  path: string,
  message: string,
): asserts value is ObjectOf<S> {
  const errors = validateObject(spec, value, path);
  if (errors.length > 0) throw new ValidationFailed(errors, message);
}

/** The URL-valued fields of an already validated object, each with its JSON-pointer path. */
export function urlFieldsOf(spec: ObjectSpec, value: Readonly<Record<string, unknown>>, path: string) {
  const found: { path: string; url: string }[] = [];
  for (const [key, field] of Object.entries(spec)) {
    const entry = value[key];
    if (field.kind === "url" && typeof entry === "string") found.push({ path: `${path}/${key}`, url: entry });
    if (field.kind === "object" && isRecord(entry)) {
      found.push(...urlFieldsOf(field.fields, entry, `${path}/${key}`));
    }
  }
  return found;
}

type JsonSchema = Record<string, unknown>;

function fieldSchema(spec: FieldSpec): JsonSchema {
  const base = { description: spec.description };
  switch (spec.kind) {
    case "url":
      return { ...base, type: "string", format: "uri", pattern: "^https?://" };
    case "path":
      return { ...base, type: "string", pattern: "^/" };
    case "reference":
      return { ...base, type: "string", pattern: REFERENCE_PATTERN.source };
    case "text":
      return { ...base, type: "string", minLength: 1, maxLength: spec.maxLength };
    case "enum":
      return { ...base, type: "string", enum: [...spec.values] };
    case "integer":
      return { ...base, type: "integer", minimum: spec.min, maximum: spec.max };
    case "boolean":
      return { ...base, type: "boolean" };
    case "object":
      return { ...base, ...objectSchema(spec.fields) };
  }
}

export function objectSchema(spec: ObjectSpec): JsonSchema {
  return {
    type: "object",
    additionalProperties: false,
    required: Object.entries(spec)
      .filter(([, field]) => field.required)
      .map(([key]) => key),
    properties: Object.fromEntries(Object.entries(spec).map(([key, field]) => [key, fieldSchema(field)])),
  };
}
