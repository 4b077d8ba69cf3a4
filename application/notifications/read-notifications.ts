import { NotificationNotFound } from "./errors.ts";
import type { CustomerNotificationList, StoredNotification } from "./ports.ts";

/** A customer marks their notifications read: one, or all at once. Another customer's is not found. */
export function makeReadNotifications(deps: { readonly notifications: CustomerNotificationList }) {
  return {
    async markRead(customerId: string, id: string): Promise<StoredNotification> {
      const notification = await deps.notifications.markRead(customerId, id);
      if (!notification) throw new NotificationNotFound();
      return notification;
    },
    markAllRead: (customerId: string): Promise<number> => deps.notifications.markAllRead(customerId),
  };
}
