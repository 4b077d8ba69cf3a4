import type postgres from "postgres";
import type { Page, PageRequest } from "../../application/shared/ports.ts";
import { ValidationFailed } from "../../domain/shared/errors.ts";
import { decodeCursor, encodeCursor } from "./cursor.ts";
import type { Queryable } from "./database.ts";

/**
 * A page request as SQL for a keyset query: put `after` among the `where` conditions (it starts
 * with `and`) and `orderAndLimit` at the end, then `cut` the rows into the page.
 */
export interface KeysetPage<T> {
  /** Only rows past the cursor's key; nothing on the first page. */
  readonly after: postgres.Fragment;
  /** Orders by the key and fetches one row more than the page: that row only says a next page exists. */
  readonly orderAndLimit: postgres.Fragment;
  cut(rows: readonly T[]): Page<T>;
}

function cut<T>(rows: readonly T[], limit: number, keyOf: (row: T) => string[]): Page<T> {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, next_cursor: rows.length > limit && last ? encodeCursor(keyOf(last)) : null };
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The time reads back as itself: no 30th of February rolled over into March. */
const sameInstant = (at: string) => {
  const time = Date.parse(at);
  return !Number.isNaN(time) && new Date(time).toISOString() === at;
};

/** A (time, id) cursor as this API issues it; anything else is a 422 before it reaches a cast in SQL. */
function instantAndId(cursor: string): [string, string] {
  const [at, id] = decodeCursor(cursor, 2);
  if (typeof at === "string" && ISO_INSTANT.test(at) && sameInstant(at)) {
    if (typeof id === "string" && UUID.test(id)) return [at, id];
  }
  throw new ValidationFailed([{ path: "/cursor", code: "INVALID_CURSOR", message: "is not a cursor this API issued" }]);
}

/**
 * Newest first by (`created_at` to the millisecond, `id`). The key is cut to milliseconds, what a
 * JavaScript date holds, so a cursor never falls between two rows of the same instant.
 */
export function newestFirst<T extends { created_at: Date; id: string }>(
  sql: Queryable,
  page: PageRequest,
): KeysetPage<T> {
  const key = page.cursor ? instantAndId(page.cursor) : undefined;
  return {
    after: key
      ? sql`and (date_trunc('milliseconds', created_at), id) < (${String(key[0])}::timestamptz, ${String(key[1])}::uuid)`
      : sql``,
    orderAndLimit: sql`order by date_trunc('milliseconds', created_at) desc, id desc limit ${page.limit + 1}`,
    cut: (rows) => cut(rows, page.limit, (row) => [row.created_at.toISOString(), row.id]),
  };
}

/**
 * Newest first by the exact (`created_at`, `id`), for reading every row of a table page by page (the
 * CSV exports): an index on `created_at` serves each page from where the last one stopped (an
 * incremental sort orders the rows of one instant by id), where the lists' key, cut to milliseconds, has every page sort the whole table. The
 * query selects the time to the microsecond as `page_key` (a JavaScript date would lose the
 * microseconds and skip or repeat rows). Cursors are the server's own, never a client's.
 */
export function newestFirstExact<T extends { page_key: string; id: string }>(
  sql: Queryable,
  page: PageRequest,
): KeysetPage<T> & { readonly key: postgres.Fragment } {
  const key = page.cursor ? decodeCursor(page.cursor, 2) : undefined;
  const at = String(key?.[0]);
  const id = String(key?.[1]);
  return {
    key: sql`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as page_key`,
    // `created_at <= at` on its own, so that the index bounds the scan. The time goes as text: a
    // parameter of type timestamptz passes through a JavaScript date, which drops the microseconds.
    after: key
      ? sql`and created_at <= ${at}::text::timestamptz and (created_at < ${at}::text::timestamptz or id < ${id}::uuid)`
      : sql``,
    orderAndLimit: sql`order by created_at desc, id desc limit ${page.limit + 1}`,
    cut: (rows) => cut(rows, page.limit, (row) => [row.page_key, row.id]),
  };
}

/** Alphabetical by (`name`, `id`): the catalog's order. */
export function byName<T extends { name: string; id: string }>(sql: Queryable, page: PageRequest): KeysetPage<T> {
  const key = page.cursor ? decodeCursor(page.cursor, 2) : undefined;
  return {
    after: key ? sql`and (name, id) > (${String(key[0])}, ${String(key[1])}::uuid)` : sql``,
    orderAndLimit: sql`order by name, id limit ${page.limit + 1}`,
    cut: (rows) => cut(rows, page.limit, (row) => [row.name, row.id]),
  };
}
