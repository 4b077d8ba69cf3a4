import { fixedError } from "../../domain/shared/domain-error.ts";
import type { NotificationInbox, StoredNotification } from "./ports.ts";

export class NotificationNotFound extends fixedError(
  "NOTIFICATION_NOT_FOUND",
  "not_found",
  "No notification of yours has this id.",
) {}

/** A customer marks their notifications read: one, or all at once. Another customer's is not found. */
export function makeReadNotifications(deps: { readonly notifications: NotificationInbox }) {
  return {
    async markRead(customerId: string, id: string): Promise<StoredNotification> {
      const notification = await deps.notifications.markRead(customerId, id);
      if (!notification) throw new NotificationNotFound();
      return notification;
    },
    markAllRead: (customerId: string): Promise<number> => deps.notifications.markAllRead(customerId),
  };
}
