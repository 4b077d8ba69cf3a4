import { type TSchema, t } from "elysia";

/**
 * A symbol, so the name is invisible to validation and to JSON, yet survives the copies TypeBox
 * makes (`t.Optional` clones a schema with its symbols).
 */
const MODEL_NAME = Symbol.for("marketplace.api-model-name");

type Named = { [MODEL_NAME]?: string };

/**
 * Every named model as it was declared. The OpenAPI plugin rewrites a union of literals as a new
 * `{ type, enum }` object, dropping the name, so a model's component is written from its
 * declaration, where the enums it holds still carry theirs.
 */
const models = new Map<string, TSchema>();

/** Names a schema as a shared model: the API document lists it once under `components.schemas`. */
export function named<T extends TSchema>(name: string, schema: T): T {
  const existing = models.get(name);
  if (existing && existing !== schema) throw new Error(`two different schemas are named ${name}`);
  models.set(name, schema);
  (schema as T & Named)[MODEL_NAME] = name;
  return schema;
}

export function modelNameOf(schema: unknown): string | undefined {
  return typeof schema === "object" && schema !== null ? (schema as Named)[MODEL_NAME] : undefined;
}

/** The schema declared under `name`. */
export function namedModel(name: string): TSchema | undefined {
  return models.get(name);
}

const pageOf = <T extends TSchema>(item: T) =>
  t.Object({
    items: t.Array(item),
    next_cursor: t.Nullable(t.String({ description: "Pass as `cursor` for the next page; null on the last" })),
  });

const pages = new WeakMap<TSchema, TSchema>();

/** `{ items, next_cursor }` of a model, one schema per item model (`ProductPage` for `Product`). */
export function page<T extends TSchema>(item: T): ReturnType<typeof pageOf<T>> {
  let schema = pages.get(item);
  if (!schema) {
    schema = pageOf(item);
    const name = modelNameOf(item);
    if (name) named(`${name}Page`, schema);
    pages.set(item, schema);
  }
  return schema as ReturnType<typeof pageOf<T>>;
}

/** A success without a body, documented where a response schema cannot say it. */
export const noContent = (description: string) => ({ 204: { description } });

/**
 * Documentation of a route that answers a pre-serialized `Response`: such a route declares no
 * `response` schema, so nothing is checked per request, and the document still names the body.
 */
export const preSerializedJson = (description: string, schema: TSchema) => ({
  200: { description, content: { "application/json": { schema: schema as unknown as Record<string, never> } } },
});

/** A body a route reads unparsed (a webhook's signed bytes), documented by the schema it is expected to meet. */
export const unparsedJsonBody = (schema: TSchema) => ({
  required: true,
  content: { "application/json": { schema: schema as unknown as Record<string, never> } },
});
