import type { AuditLogReader, AuditRecord } from "../../application/audit/ports.ts";
import { ValidationFailed } from "../../domain/shared/errors.ts";
import { isUuid } from "../shared/ids.ts";
import { decodeCursor, encodeCursor } from "./cursor.ts";
import type { Queryable } from "./database.ts";

const ENTRY_ID = /^[1-9]\d{0,17}$/;

function entryIdFromCursor(cursor: string): string {
  const [id] = decodeCursor(cursor, 1);
  if (typeof id === "string" && ENTRY_ID.test(id)) return id;
  throw new ValidationFailed([{ path: "/cursor", code: "INVALID_CURSOR", message: "is not a cursor this API issued" }]);
}

/**
 * Newest first by id (the identity grows with every entry, so it orders them as they were written);
 * the cursor is the last id seen. Each filter has its own `(column, id desc)` index. The order
 * names the table's column: a bare `id` would be the selected text and sort "10" before "9".
 */
export function createPostgresAuditLogReader(sql: Queryable): AuditLogReader {
  return {
    async list(filter, page) {
      const before = page.cursor ? entryIdFromCursor(page.cursor) : undefined;
      // No account has an id that is not a UUID: nobody by that name ever acted.
      if (filter.actor_id !== undefined && !isUuid(filter.actor_id)) return { items: [], next_cursor: null };
      const rows = await sql<AuditRecord[]>`
        select id::text as id, actor_id, actor_kind, actor_name, action, target_type, target_id, at, summary
        from audit_log
        where true
          ${filter.actor_id !== undefined ? sql`and actor_id = ${filter.actor_id}::uuid` : sql``}
          ${filter.target_id !== undefined ? sql`and target_id = ${filter.target_id}` : sql``}
          ${filter.action !== undefined ? sql`and action = ${filter.action}` : sql``}
          ${before ? sql`and id < ${before}::bigint` : sql``}
        order by audit_log.id desc
        limit ${page.limit + 1}`;
      const items = rows.slice(0, page.limit);
      const last = items.at(-1);
      return { items, next_cursor: rows.length > page.limit && last ? encodeCursor([last.id]) : null };
    },
  };
}
