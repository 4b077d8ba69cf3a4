import type {
  NotificationOutbox,
  NotificationOutboxMessage,
  NotificationOutboxReader,
} from "../../application/notifications/ports.ts";
import { isUuid } from "../shared/ids.ts";
import type { Queryable } from "./database.ts";

/** Writes a message inside the caller's transaction: it leaves only if the state change behind it commits. */
export function createPostgresNotificationOutbox(sql: Queryable): NotificationOutbox {
  return {
    async add(kind, payload) {
      const [row] = await sql<{ id: string }[]>`
        insert into outbox (kind, payload) values (${kind}, ${sql.json(payload as never)}) returning id`;
      if (!row) throw new Error("outbox insert returned no row");
      return row.id;
    },
    async addOnce(kind, payload, key) {
      const [row] = await sql<{ id: string }[]>`
        insert into outbox (kind, payload, once_key) values (${kind}, ${sql.json(payload as never)}, ${key})
        on conflict (once_key) where once_key is not null do nothing
        returning id`;
      return row?.id;
    },
  };
}

/** What the notify job and the minute tick's sweep read and mark. */
export function createPostgresNotificationOutboxReader(sql: Queryable): NotificationOutboxReader {
  return {
    async find(id) {
      if (!isUuid(id)) return undefined;
      const [row] = await sql<
        NotificationOutboxMessage[]
      >`select id, kind, payload, dispatched_at from outbox where id = ${id}`;
      return row;
    },
    async markDispatched(id) {
      await sql`update outbox set dispatched_at = now() where id = ${id} and dispatched_at is null`;
    },
    async stale(olderThanSeconds, limit) {
      return [
        ...(await sql<NotificationOutboxMessage[]>`
          select id, kind, payload, dispatched_at from outbox
          where dispatched_at is null and created_at < now() - make_interval(secs => ${olderThanSeconds})
          order by created_at limit ${limit}`),
      ];
    },
  };
}
