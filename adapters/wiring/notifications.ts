import { makeDispatchNotification } from "../../application/notifications/dispatch-notification.ts";
import { makeListNotifications } from "../../application/notifications/list-notifications.ts";
import { NOTIFY_JOB } from "../../application/notifications/ports.ts";
import { createLogAndInboxNotifier, createPostgresNotificationInbox } from "../postgres/notification-store.ts";
import { createPostgresOutboxReader } from "../postgres/outbox.ts";
import type { Platform } from "./platform.ts";

/** The outbox's messages to customers: dispatched by a job, listed in the customer's inbox. */
export function wireNotifications({ sql, logger }: Platform) {
  const outbox = createPostgresOutboxReader(sql);
  const notifier = createLogAndInboxNotifier({ sql, logger });
  return {
    outbox,
    routes: {
      listCustomerNotifications: makeListNotifications({ notifications: createPostgresNotificationInbox(sql) }),
    },
    jobs: { [NOTIFY_JOB]: makeDispatchNotification({ outbox, notifier }) },
  };
}

export type NotificationsFeature = ReturnType<typeof wireNotifications>;
