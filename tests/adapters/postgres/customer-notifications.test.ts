import { describe, expect, test } from "bun:test";
import {
  createLogAndListNotifier,
  createPostgresCustomerNotificationList,
} from "../../../adapters/postgres/customer-notifications.ts";
import { createPostgresNotificationOutbox } from "../../../adapters/postgres/notification-outbox.ts";
import { createLogger } from "../../../kit/logger.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();

async function aCustomer() {
  const [user] = await db.current.sql<{ id: string }[]>`
    insert into users (email, name, role, password_hash)
    values (${`notified-${crypto.randomUUID()}@example.test`}, 'N', 'customer', 'x') returning id`;
  if (!user) throw new Error("no user");
  return user.id;
}

describe("customers' notification lists in Postgres", () => {
  test("what the notifier delivers the customer's list shows, newest first, once per message", async () => {
    const sql = db.current.sql;
    const customer = await aCustomer();
    const notifier = createLogAndListNotifier({ sql, logger: createLogger({ level: "silent" }) });
    const deliver = async (kind: "fulfillment.ready" | "fulfillment.failed") => {
      const outbox_id = await createPostgresNotificationOutbox(sql).add(kind, {});
      const notification = { outbox_id, customer_id: customer, kind, title: kind, body: "b", data: { order_id: "o" } };
      await notifier.deliver(notification);
      await notifier.deliver(notification);
      return outbox_id;
    };
    await deliver("fulfillment.ready");
    await db.current
      .sql`update notifications set created_at = now() - interval '1 minute' where customer_id = ${customer}`;
    await deliver("fulfillment.failed");
    const inbox = createPostgresCustomerNotificationList(sql);
    const listed = (await inbox.listForCustomer(customer, {}, { limit: 10 })).items;
    expect(listed.map((n) => n.kind)).toEqual(["fulfillment.failed", "fulfillment.ready"]);
    expect(listed[0]).toMatchObject({ customer_id: customer, data: { order_id: "o" }, read_at: null });
    expect(listed[0]?.created_at).toBeInstanceOf(Date);
    const first = await inbox.listForCustomer(customer, {}, { limit: 1 });
    expect(first.items.map((n) => n.kind)).toEqual(["fulfillment.failed"]);
    const second = await inbox.listForCustomer(customer, {}, { limit: 1, cursor: first.next_cursor ?? "" });
    expect(second).toMatchObject({ items: [{ kind: "fulfillment.ready" }], next_cursor: null });
    expect((await inbox.listForCustomer(await aCustomer(), {}, { limit: 10 })).items).toEqual([]);
  });

  test("read state: one notification, then all; another customer's stays untouched and unfound", async () => {
    const sql = db.current.sql;
    const [ada, bob] = [await aCustomer(), await aCustomer()];
    const notifier = createLogAndListNotifier({ sql, logger: createLogger({ level: "silent" }) });
    const notifyOnce = async (customer: string) => {
      const outbox_id = await createPostgresNotificationOutbox(sql).add("fulfillment.ready", {});
      await notifier.deliver({
        outbox_id,
        customer_id: customer,
        kind: "fulfillment.ready",
        title: "t",
        body: "b",
        data: {},
      });
    };
    for (const customer of [ada, ada, ada, bob]) await notifyOnce(customer);
    const inbox = createPostgresCustomerNotificationList(sql);
    const unread = async (customer: string) =>
      (await inbox.listForCustomer(customer, { unread: true }, { limit: 10 })).items;
    const [one] = await unread(ada);
    if (!one) throw new Error("no notification");
    const read = await inbox.markRead(ada, one.id);
    expect(read?.read_at).toBeInstanceOf(Date);
    expect((await inbox.markRead(ada, one.id))?.read_at).toEqual(read?.read_at ?? null);
    expect(await unread(ada)).toHaveLength(2);
    expect(await inbox.markRead(bob, one.id)).toBeUndefined();
    expect(await inbox.markRead(ada, "not-a-uuid")).toBeUndefined();
    expect(await inbox.markAllRead(ada)).toBe(2);
    expect(await inbox.markAllRead(ada)).toBe(0);
    expect(await unread(ada)).toEqual([]);
    expect((await inbox.listForCustomer(ada, {}, { limit: 10 })).items).toHaveLength(3);
    expect(await unread(bob)).toHaveLength(1);
  });
});
