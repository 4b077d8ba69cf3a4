import { describe, expect, test } from "bun:test";
import { MAX_NOTIFICATIONS, makeListNotifications } from "../../../application/notifications/list-notifications.ts";
import { createInMemoryNotificationInbox } from "../../support/fakes/in-memory-notification-inbox.ts";

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute));

describe("listing a customer's notifications", () => {
  test("a customer sees their own notifications, newest first", async () => {
    const notifications = createInMemoryNotificationInbox();
    const older = notifications.add({ customer_id: "ada", created_at: at(1) });
    const newer = notifications.add({ customer_id: "ada", created_at: at(2), kind: "fulfillment.failed" });
    notifications.add({ customer_id: "bob", created_at: at(3) });
    const list = makeListNotifications({ notifications });
    expect((await list("ada", 50)).map((n) => n.id)).toEqual([newer.id, older.id]);
    expect(await list("carol", 50)).toEqual([]);
  });

  test("at most `limit` are shown, the newest", async () => {
    const notifications = createInMemoryNotificationInbox();
    const ids = [1, 2, 3].map((minute) => notifications.add({ customer_id: "ada", created_at: at(minute) }).id);
    expect((await makeListNotifications({ notifications })("ada", 2)).map((n) => n.id)).toEqual(ids.slice(1).reverse());
  });

  test("the limit is kept between 1 and the maximum whatever the caller asks", async () => {
    const notifications = createInMemoryNotificationInbox();
    for (let minute = 0; minute < MAX_NOTIFICATIONS + 5; minute++) {
      notifications.add({ customer_id: "ada", created_at: new Date(at(0).getTime() + minute * 1000) });
    }
    const list = makeListNotifications({ notifications });
    expect(await list("ada", 1000)).toHaveLength(MAX_NOTIFICATIONS);
    expect(await list("ada", 0)).toHaveLength(1);
    expect(await list("ada", -3)).toHaveLength(1);
    expect(await list("ada", Number.NaN)).toHaveLength(1);
  });
});
