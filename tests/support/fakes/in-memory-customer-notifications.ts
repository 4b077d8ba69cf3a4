import type { CustomerNotificationList, StoredNotification } from "../../../application/notifications/ports.ts";

/**
 * Customers' notification lists in memory, read like the real query: one customer's, newest
 * first, a cursor being the index past the last one shown.
 */
export function createInMemoryCustomerNotificationList() {
  let notifications: StoredNotification[] = [];
  const ofCustomer = (customerId: string) =>
    notifications
      .filter((notification) => notification.customer_id === customerId)
      .sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? 1 : -1));
  const inbox: CustomerNotificationList = {
    async listForCustomer(customerId, filter, page) {
      const matching = ofCustomer(customerId).filter(
        (notification) => filter.unread === undefined || (notification.read_at === null) === filter.unread,
      );
      const start = page.cursor ? Number(page.cursor) : 0;
      const items = matching.slice(start, start + page.limit);
      return { items, next_cursor: start + page.limit < matching.length ? String(start + page.limit) : null };
    },
    async markRead(customerId, id) {
      const found = notifications.find(
        (notification) => notification.id === id && notification.customer_id === customerId,
      );
      if (!found) return undefined;
      const read = { ...found, read_at: found.read_at ?? new Date() };
      notifications = notifications.map((notification) => (notification.id === id ? read : notification));
      return read;
    },
    async markAllRead(customerId) {
      let count = 0;
      notifications = notifications.map((notification) => {
        if (notification.customer_id !== customerId || notification.read_at !== null) return notification;
        count += 1;
        return { ...notification, read_at: new Date() };
      });
      return count;
    },
  };
  return {
    ...inbox,
    /** Seeds one notification for `customer_id`, created at `created_at` (default now). */
    add(overrides: Partial<StoredNotification> & Pick<StoredNotification, "customer_id">): StoredNotification {
      const notification: StoredNotification = {
        id: crypto.randomUUID(),
        kind: "fulfillment.ready",
        title: "Your purchase is ready",
        body: "Delivery finished.",
        data: {},
        created_at: new Date(),
        read_at: null,
        ...overrides,
      };
      notifications.push(notification);
      return notification;
    },
  };
}
