import { describe, expect, test } from "bun:test";
import {
  createLogAndInboxNotifier,
  createPostgresNotificationInbox,
} from "../../../adapters/postgres/notification-store.ts";
import { createPostgresOutbox } from "../../../adapters/postgres/outbox.ts";
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
    const notifier = createLogAndInboxNotifier({ sql, logger: createLogger({ level: "silent" }) });
    const deliver = async (kind: "fulfillment.ready" | "fulfillment.failed") => {
      const outbox_id = await createPostgresOutbox(sql).add(kind, {});
      const notification = { outbox_id, customer_id: customer, kind, title: kind, body: "b", data: { order_id: "o" } };
      await notifier.deliver(notification);
      await notifier.deliver(notification);
      return outbox_id;
    };
    await deliver("fulfillment.ready");
    await db.current
      .sql`update notifications set created_at = now() - interval '1 minute' where customer_id = ${customer}`;
    await deliver("fulfillment.failed");
    const listed = await createPostgresNotificationInbox(sql).listForCustomer(customer, 10);
    expect(listed.map((n) => n.kind)).toEqual(["fulfillment.failed", "fulfillment.ready"]);
    expect(listed[0]).toMatchObject({ customer_id: customer, data: { order_id: "o" }, read_at: null });
    expect(listed[0]?.created_at).toBeInstanceOf(Date);
    expect(await createPostgresNotificationInbox(sql).listForCustomer(customer, 1)).toHaveLength(1);
    expect(await createPostgresNotificationInbox(sql).listForCustomer(await aCustomer(), 10)).toEqual([]);
  });
});
