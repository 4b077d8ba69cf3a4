import type {
  CustomerNotification,
  NotificationInbox,
  Notifier,
  StoredNotification,
} from "../../application/notifications/ports.ts";
import type { Logger } from "../../kit/logger.ts";
import type { Sql } from "./database.ts";

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

/** The customers' notification lists the Notifier above writes. */
export function createPostgresNotificationInbox(sql: Sql): NotificationInbox {
  return {
    async listForCustomer(customerId, limit) {
      return [
        ...(await sql<StoredNotification[]>`
          select id, customer_id, kind, title, body, data, created_at, read_at from notifications
          where customer_id = ${customerId} order by created_at desc, id desc limit ${limit}`),
      ];
    },
  };
}
