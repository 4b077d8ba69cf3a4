import type { NotificationInbox, StoredNotification } from "../../../application/notifications/ports.ts";

/** Customers' notification lists in memory, read like the real query: one customer's, newest first. */
export function createInMemoryNotificationInbox() {
  const notifications: StoredNotification[] = [];
  const inbox: NotificationInbox = {
    async listForCustomer(customerId, limit) {
      return notifications
        .filter((notification) => notification.customer_id === customerId)
        .sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? 1 : -1))
        .slice(0, limit);
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
