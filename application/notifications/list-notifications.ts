import type { Page } from "../shared/ports.ts";
import type { CustomerNotificationList, NotificationFilter, StoredNotification } from "./ports.ts";

/** The most a customer's list shows at once, whatever the caller asks for. */
export const MAX_NOTIFICATIONS = 100;

/** A customer's own notifications, newest first: between 1 and `MAX_NOTIFICATIONS` per page. */
export function makeListNotifications(deps: { readonly notifications: CustomerNotificationList }) {
  return function listNotifications(
    customerId: string,
    filter: NotificationFilter,
    page: { readonly limit: number; readonly cursor?: string },
  ): Promise<Page<StoredNotification>> {
    const limit = Math.min(Math.max(Math.trunc(page.limit) || 1, 1), MAX_NOTIFICATIONS);
    return deps.notifications.listForCustomer(customerId, filter, { ...page, limit });
  };
}
