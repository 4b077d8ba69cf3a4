import { unwrapSchema } from "@elysiajs/openapi/openapi";
import { modelNameOf } from "./openapi-models.ts";

export type Json = Record<string, unknown>;

export const OPENAPI_VERSION = "3.1.2";

/**
 * TypeBox schemas as OpenAPI 3.1 schema objects, each named model (`named(...)`) written once
 * into `components.schemas` and referenced wherever it is used. Enum and nullable forms come from
 * the OpenAPI plugin's own mapping, so bodies read like the parameters it generates.
 */
export function createSchemaRegistry() {
  const components = new Map<string, Json>();
  const converted = new Map<string, Set<object>>();

  function reference(name: string, schema: object): Json {
    const seen = converted.get(name) ?? new Set<object>();
    if (!seen.has(schema)) {
      seen.add(schema);
      converted.set(name, seen);
      const json = toJson(withReferences(schema, true));
      const existing = components.get(name);
      // `t.Optional` copies a model, name included: a copy is fine, a different schema is not.
      if (existing && JSON.stringify(existing) !== JSON.stringify(json)) {
        throw new Error(`two different schemas are named ${name}`);
      }
      components.set(name, json);
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  function withReferences(node: unknown, root: boolean): unknown {
    if (Array.isArray(node)) return node.map((item) => withReferences(item, false));
    if (typeof node !== "object" || node === null) return node;
    const name = modelNameOf(node);
    if (name && !root) return reference(name, node);
    // A spread keeps TypeBox's symbols, which the plugin's mapping reads.
    const copy: Record<string, unknown> = { ...node };
    for (const key of Object.keys(copy)) copy[key] = withReferences(copy[key], false);
    return copy;
  }

  return {
    /** The schema object for a TypeBox schema: a `$ref` when it is a named model. */
    schema(schema: unknown): Json {
      const prepared = withReferences(schema, false) as Json;
      return typeof prepared.$ref === "string" ? prepared : toJson(prepared);
    },
    /** Every model referenced so far, by name. */
    components(): Json {
      return Object.fromEntries([...components].sort(([a], [b]) => a.localeCompare(b)));
    },
  };
}

export type SchemaRegistry = ReturnType<typeof createSchemaRegistry>;

/**
 * OpenAPI 3.1 has no `nullable` (a type list says it), and an enum that may be null must list
 * null (the plugin folds `anyOf: [enum, null]` into one schema without it). JSON drops TypeBox's
 * symbols.
 */
function toJson(schema: unknown): Json {
  const mapped = unwrapSchema(schema as never, undefined, "output", OPENAPI_VERSION) ?? {};
  return JSON.parse(
    JSON.stringify(mapped, (key, value) => {
      if (key === "nullable" && value === true) return undefined;
      const nullableEnum = Array.isArray(value?.type) && value.type.includes("null") && Array.isArray(value.enum);
      return nullableEnum && !value.enum.includes(null) ? { ...value, enum: [...value.enum, null] } : value;
    }),
  );
}
