import type {
  CustomerNotification,
  Notifier,
  OutboxMessage,
  OutboxReader,
} from "../../application/notifications/ports.ts";
import type { Logger } from "../logging/logger.ts";
import type { Sql } from "./database.ts";
import { UUID } from "./product-repository.ts";

export function createPostgresOutboxReader(sql: Sql): OutboxReader {
  return {
    async find(id) {
      if (!UUID.test(id)) return undefined;
      const [row] = await sql<OutboxMessage[]>`select id, kind, payload, dispatched_at from outbox where id = ${id}`;
      return row;
    },
    async markDispatched(id) {
      await sql`update outbox set dispatched_at = now() where id = ${id} and dispatched_at is null`;
    },
    async stale(olderThanSeconds, limit) {
      return [
        ...(await sql<OutboxMessage[]>`
          select id, kind, payload, dispatched_at from outbox
          where dispatched_at is null and created_at < now() - make_interval(secs => ${olderThanSeconds})
          order by created_at limit ${limit}`),
      ];
    },
  };
}

/** The default Notifier: a structured log line, and the notification in the customer's list. */
export function createLogAndInboxNotifier(deps: { sql: Sql; logger: Logger }): Notifier {
  return {
    async deliver(notification: CustomerNotification) {
      await deps.sql`
        insert into notifications (outbox_id, customer_id, kind, title, body, data)
        values (${notification.outbox_id}, ${notification.customer_id}, ${notification.kind}, ${notification.title},
                ${notification.body}, ${deps.sql.json(notification.data as never)})
        on conflict (outbox_id) do nothing`;
      deps.logger.info(
        {
          notification: notification.kind,
          customer_id: notification.customer_id,
          order_id: notification.data.order_id,
          order_item_id: notification.data.order_item_id,
          driver: notification.data.driver,
        },
        "customer notified",
      );
    },
  };
}

export interface StoredNotification extends Omit<CustomerNotification, "outbox_id"> {
  readonly id: string;
  readonly created_at: Date;
  readonly read_at: Date | null;
}

export async function listNotifications(sql: Sql, customerId: string, limit: number): Promise<StoredNotification[]> {
  return [
    ...(await sql<StoredNotification[]>`
      select id, customer_id, kind, title, body, data, created_at, read_at from notifications
      where customer_id = ${customerId} order by created_at desc, id desc limit ${limit}`),
  ];
}
