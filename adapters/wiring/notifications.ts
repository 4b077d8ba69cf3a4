import { makeDispatchNotification } from "../../application/notifications/dispatch-notification.ts";
import { notifyJob } from "../../application/notifications/jobs.ts";
import { makeListNotifications } from "../../application/notifications/list-notifications.ts";
import { makeReadNotifications } from "../../application/notifications/read-notifications.ts";
import { createPostgresDeliveryMailFacts } from "../postgres/delivery-mail-facts.ts";
import { createLogAndInboxNotifier, createPostgresNotificationInbox } from "../postgres/notification-store.ts";
import { createPostgresOutboxReader } from "../postgres/outbox.ts";
import type { FeatureJobs } from "./job-kinds.ts";
import type { MailFeature } from "./mail.ts";
import type { Platform } from "./platform.ts";

/** The outbox's messages to customers: dispatched by a job, listed in the customer's inbox, emailed with mail. */
export function wireNotifications({ sql, logger, config }: Platform, { mail }: { mail: MailFeature }) {
  const outbox = createPostgresOutboxReader(sql);
  const notifier = createLogAndInboxNotifier({ sql, logger });
  const inbox = createPostgresNotificationInbox(sql);
  const reader = makeReadNotifications({ notifications: inbox });
  const email = mail.queue && {
    facts: createPostgresDeliveryMailFacts(sql),
    queue: mail.queue,
    publicBaseUrl: config.publicBaseUrl,
  };
  return {
    outbox,
    routes: {
      listCustomerNotifications: makeListNotifications({ notifications: inbox }),
      readNotification: reader.markRead,
      readAllNotifications: reader.markAllRead,
    },
    jobs: {
      [notifyJob.kind]: makeDispatchNotification({ outbox, notifier, ...(email ? { mail: email } : {}) }),
    } satisfies FeatureJobs,
  };
}

export type NotificationsFeature = ReturnType<typeof wireNotifications>;
