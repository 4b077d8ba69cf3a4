import type {
  CustomerNotification,
  CustomerNotificationList,
  Notifier,
  StoredNotification,
} from "../../application/notifications/ports.ts";
import type { Logger } from "../../kit/logger.ts";
import { isUuid } from "../shared/ids.ts";
import { columnList } from "./column-list.ts";
import type { Sql } from "./database.ts";
import { newestFirst } from "./keyset-page.ts";

/** The default Notifier: a structured log line, and the notification in the customer's list. */
export function createLogAndListNotifier(deps: { sql: Sql; logger: Logger }): Notifier {
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

const unreadCondition = (sql: Sql, unread: boolean | undefined) =>
  unread === undefined ? sql`` : unread ? sql`and read_at is null` : sql`and read_at is not null`;

const COLUMNS = ["id", "customer_id", "kind", "title", "body", "data", "created_at", "read_at"] as const;

/** The customers' notification lists the Notifier above writes. */
export function createPostgresCustomerNotificationList(sql: Sql): CustomerNotificationList {
  return {
    async listForCustomer(customerId, filter, page) {
      const keyset = newestFirst<StoredNotification>(sql, page);
      const rows = await sql<StoredNotification[]>`
        select ${columnList(sql, COLUMNS)} from notifications
        where customer_id = ${customerId} ${unreadCondition(sql, filter.unread)} ${keyset.after}
        ${keyset.orderAndLimit}`;
      return keyset.cut(rows);
    },
    async markRead(customerId, id) {
      if (!isUuid(id)) return undefined;
      const [row] = await sql<StoredNotification[]>`
        update notifications set read_at = coalesce(read_at, now())
        where id = ${id} and customer_id = ${customerId} returning ${columnList(sql, COLUMNS)}`;
      return row;
    },
    async markAllRead(customerId) {
      const updated = await sql`
        update notifications set read_at = now() where customer_id = ${customerId} and read_at is null`;
      return updated.count;
    },
  };
}
