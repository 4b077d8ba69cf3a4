import type { TInteger, TSchema, TUnsafe } from "@sinclair/typebox";
import { t } from "elysia";
import type { PageRequest } from "../../application/shared/ports.ts";
import { QueryInt } from "../../kit/schema-types.ts";

/**
 * Schemas every feature's routes use. A feature's own vocabulary lives with the feature
 * (catalog-schemas.ts, order-schemas.ts...), built from the domain's lists and caps.
 */

/**
 * A union of literals. Elysia fills an absent optional `t.UnionEnum` query parameter with the
 * enum's first value, which turned "no filter" into a filter; plain literal unions do not. Typed
 * as a schema of `T`: TypeBox types a union built from a list (not a tuple) as `never`.
 */
export function oneOf<const T extends string>(values: readonly T[]): TUnsafe<T> {
  return t.Union(values.map((value) => t.Literal(value))) as TSchema as TUnsafe<T>;
}

/**
 * `oneOf` for a union declared only as a type, with no list to import: the list must name every
 * member of `T` and nothing else, or it does not compile, so the schema cannot drift from the type.
 */
export function everyOf<T extends string>() {
  return <const V extends readonly T[]>(values: V & ([T] extends [V[number]] ? unknown : never)) => oneOf<T>(values);
}

/** An id the database assigned. */
export const Uuid = t.String({ format: "uuid" });

export const Time = t.String({ format: "date-time" });

/** The `:id` of a route: any short text, since an id that names nothing is a 404, not a 422. */
export const IdParams = t.Object({ id: t.String({ maxLength: 64 }) });

export const Cursor = t.Optional(t.String({ maxLength: 512 }));

/**
 * Page size, 20 when the query leaves it out. Optional in the document, yet a number in the
 * handler: Elysia fills in the default before the handler runs, so the default lives here only.
 */
export const ListLimit: TInteger = t.Optional(QueryInt({ minimum: 1, maximum: 100, default: 20 }));

/** The page a list route asks its use case for, from its `cursor` and `limit` query parameters. */
export function pageRequest(query: { readonly cursor?: string | undefined; readonly limit: number }): PageRequest {
  return { limit: query.limit, ...(query.cursor ? { cursor: query.cursor } : {}) };
}
