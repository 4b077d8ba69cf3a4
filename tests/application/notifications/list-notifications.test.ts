import { describe, expect, test } from "bun:test";
import { MAX_NOTIFICATIONS, makeListNotifications } from "../../../application/notifications/list-notifications.ts";
import { makeReadNotifications } from "../../../application/notifications/read-notifications.ts";
import { createInMemoryCustomerNotificationList } from "../../support/fakes/in-memory-customer-notifications.ts";

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute));
const ids = (page: { items: readonly { id: string }[] }) => page.items.map((n) => n.id);

describe("listing a customer's notifications", () => {
  test("a customer sees their own notifications, newest first", async () => {
    const notifications = createInMemoryCustomerNotificationList();
    const older = notifications.add({ customer_id: "ada", created_at: at(1) });
    const newer = notifications.add({ customer_id: "ada", created_at: at(2), kind: "fulfillment.failed" });
    notifications.add({ customer_id: "bob", created_at: at(3) });
    const list = makeListNotifications({ notifications });
    expect(ids(await list("ada", {}, { limit: 50 }))).toEqual([newer.id, older.id]);
    expect(ids(await list("carol", {}, { limit: 50 }))).toEqual([]);
  });

  test("at most `limit` are shown, the newest", async () => {
    const notifications = createInMemoryCustomerNotificationList();
    const added = [1, 2, 3].map((minute) => notifications.add({ customer_id: "ada", created_at: at(minute) }).id);
    expect(ids(await makeListNotifications({ notifications })("ada", {}, { limit: 2 }))).toEqual(
      added.slice(1).reverse(),
    );
  });

  test("the limit is kept between 1 and the maximum whatever the caller asks", async () => {
    const notifications = createInMemoryCustomerNotificationList();
    for (let minute = 0; minute < MAX_NOTIFICATIONS + 5; minute++) {
      notifications.add({ customer_id: "ada", created_at: new Date(at(0).getTime() + minute * 1000) });
    }
    const list = makeListNotifications({ notifications });
    expect((await list("ada", {}, { limit: 1000 })).items).toHaveLength(MAX_NOTIFICATIONS);
    expect((await list("ada", {}, { limit: 0 })).items).toHaveLength(1);
    expect((await list("ada", {}, { limit: -3 })).items).toHaveLength(1);
    expect((await list("ada", {}, { limit: Number.NaN })).items).toHaveLength(1);
  });

  test("unread only, once some are read; reading another customer's is not found", async () => {
    const notifications = createInMemoryCustomerNotificationList();
    const first = notifications.add({ customer_id: "ada", created_at: at(1) });
    const second = notifications.add({ customer_id: "ada", created_at: at(2) });
    const theirs = notifications.add({ customer_id: "bob", created_at: at(3) });
    const list = makeListNotifications({ notifications });
    const reader = makeReadNotifications({ notifications });
    expect((await reader.markRead("ada", first.id)).read_at).toBeInstanceOf(Date);
    expect(ids(await list("ada", { unread: true }, { limit: 10 }))).toEqual([second.id]);
    expect(ids(await list("ada", { unread: false }, { limit: 10 }))).toEqual([first.id]);
    await expect(reader.markRead("ada", theirs.id)).rejects.toMatchObject({ code: "NOTIFICATION_NOT_FOUND" });
    expect(await reader.markAllRead("ada")).toBe(1);
    expect(ids(await list("ada", { unread: true }, { limit: 10 }))).toEqual([]);
    expect(ids(await list("bob", { unread: true }, { limit: 10 }))).toEqual([theirs.id]);
  });
});
