import type { NotificationInbox, StoredNotification } from "./ports.ts";

/** The most a customer's list shows at once, whatever the caller asks for. */
export const MAX_NOTIFICATIONS = 100;

/** A customer's own notifications, newest first: between 1 and `MAX_NOTIFICATIONS` of them. */
export function makeListNotifications(deps: { readonly notifications: NotificationInbox }) {
  return function listNotifications(customerId: string, limit: number): Promise<StoredNotification[]> {
    const bounded = Math.min(Math.max(Math.trunc(limit) || 1, 1), MAX_NOTIFICATIONS);
    return deps.notifications.listForCustomer(customerId, bounded);
  };
}
