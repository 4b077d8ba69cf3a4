import type { InboxEntry, WebhookInboxReader } from "../../application/payments/inbox-ports.ts";
import { isUuid } from "../shared/ids.ts";
import type { Queryable } from "./database.ts";

export function createPostgresWebhookInboxReader(sql: Queryable): WebhookInboxReader {
  return {
    async find(id) {
      if (!isUuid(id)) return undefined;
      const [row] = await sql<InboxEntry[]>`
        select id, gateway, event_id, environment, payload, event, processed_at from webhook_inbox where id = ${id}`;
      return row;
    },
    async markProcessed(id) {
      if (!isUuid(id)) return false;
      const marked = await sql`update webhook_inbox set processed_at = now() where id = ${id} and processed_at is null`;
      return marked.count > 0;
    },
  };
}
