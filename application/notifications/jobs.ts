import { defineJob } from "../shared/jobs.ts";

/**
 * Sends one outbox message through the Notifier (and queues its email). Handled by
 * `makeDispatchNotification` (dispatch-notification.ts).
 */
export const notifyJob = defineJob({
  kind: "notify",
  read: (fields) => ({ outbox_id: fields.string("outbox_id") }),
  dedupeKey: ({ outbox_id }) => `notify:${outbox_id}`,
});
