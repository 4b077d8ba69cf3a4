import type { Outbox } from "../../application/notifications/ports.ts";
import type { InboxEntry, WebhookInbox } from "../../application/payments/inbox.ts";
import type { Queryable } from "./database.ts";
import { UUID } from "./product-repository.ts";

export function createPostgresWebhookInbox(sql: Queryable): WebhookInbox {
  return {
    async insert(entry) {
      const [row] = await sql<{ id: string }[]>`
        insert into webhook_inbox ${sql(entry)} on conflict (gateway, event_id) do nothing returning id`;
      return row ? { inserted: true, id: row.id } : { inserted: false };
    },
    async find(id) {
      if (!UUID.test(id)) return undefined;
      const [row] = await sql<InboxEntry[]>`
        select id, gateway, event_id, environment, payload, processed_at from webhook_inbox where id = ${id}`;
      return row;
    },
    async markProcessed(id) {
      await sql`update webhook_inbox set processed_at = now() where id = ${id}`;
    },
  };
}

export function createPostgresOutbox(sql: Queryable): Outbox {
  return {
    async add(kind, payload) {
      const [row] = await sql<{ id: string }[]>`
        insert into outbox (kind, payload) values (${kind}, ${sql.json(payload as never)}) returning id`;
      if (!row) throw new Error("outbox insert returned no row");
      return row.id;
    },
  };
}
