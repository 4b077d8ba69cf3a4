import { unwrapSchema } from "@elysiajs/openapi/openapi";
import { modelNameOf, namedModel } from "./openapi-models.ts";

export type Json = Record<string, unknown>;

export const OPENAPI_VERSION = "3.1.2";

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null;

const reference = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const mayBeNull = (schema: unknown) => isObject(schema) && Array.isArray(schema.type) && schema.type.includes("null");

/**
 * A schema with each named model in it replaced by a reference, `found` collecting the names. The
 * plugin folds `t.Nullable(model)` into the model's own object with `null` added to its type,
 * name included: that one is a reference or null.
 */
function withReferences(node: unknown, found: Set<string>, root: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => withReferences(item, found, false));
  if (!isObject(node)) return node;
  const name = modelNameOf(node);
  if (name && !root) {
    found.add(name);
    const nullable = mayBeNull(node) && !mayBeNull(namedModel(name));
    return nullable ? { anyOf: [reference(name), { type: "null" }] } : reference(name);
  }
  // A spread keeps TypeBox's symbols, which the plugin's mapping reads.
  const copy: Json = { ...node };
  for (const key of Object.keys(copy)) copy[key] = withReferences(copy[key], found, false);
  return copy;
}

/**
 * A schema as the plugin maps it, its named models as references. The plugin's own output maps
 * to itself; a schema written in `detail` (a webhook's event, a pre-serialized answer) reaches the
 * document as TypeBox and is mapped here.
 */
function schemaObject(schema: unknown, found: Set<string>, root = false): unknown {
  const prepared = withReferences(schema, found, root);
  if (isObject(prepared) && typeof prepared.$ref === "string") return prepared;
  return unwrapSchema(prepared as never, undefined, "output", OPENAPI_VERSION) ?? prepared;
}

/** Every `schema` under `node` (of parameters, bodies, responses, headers) mapped by `map`. */
function mapSchemas(node: unknown, map: (schema: unknown) => unknown): unknown {
  if (Array.isArray(node)) return node.map((item) => mapSchemas(item, map));
  if (!isObject(node)) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, key === "schema" ? map(value) : mapSchemas(value, map)]),
  );
}

/**
 * Named models (`named(...)`) as `components.schemas`, referenced wherever an operation or a
 * shared response uses them: the plugin writes every schema out in full where it is used. Each
 * component is written from the model's declaration, with the models it holds as references in
 * turn.
 */
export function withNamedModels(document: Json): Json {
  const found = new Set<string>();
  const components = (document.components ?? {}) as Json;
  const map = (schema: unknown) => schemaObject(schema, found);
  const paths = mapSchemas(document.paths, map);
  const responses = mapSchemas(components.responses, map);
  const schemas: Json = {};
  const pending = [...found];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (name in schemas) continue;
    const nested = new Set<string>();
    schemas[name] = schemaObject(namedModel(name), nested, true);
    pending.push(...nested);
  }
  const sorted = Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b));
  return {
    ...document,
    paths,
    components: {
      ...components,
      schemas: { ...(components.schemas as Json), ...Object.fromEntries(sorted) },
      ...(responses ? { responses } : {}),
    },
  };
}
