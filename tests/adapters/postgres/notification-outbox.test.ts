import { describe, expect, test } from "bun:test";
import {
  createPostgresNotificationOutbox,
  createPostgresNotificationOutboxReader,
} from "../../../adapters/postgres/notification-outbox.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();

describe("the Postgres outbox", () => {
  test("what the writer adds, the reader finds and marks dispatched once", async () => {
    const id = await createPostgresNotificationOutbox(db.current.sql).add("fulfillment.ready", {
      order_id: "o-1",
      n: 2,
    });
    const reader = createPostgresNotificationOutboxReader(db.current.sql);
    expect(await reader.find(id)).toEqual({
      id,
      kind: "fulfillment.ready",
      payload: { order_id: "o-1", n: 2 },
      dispatched_at: null,
    });
    await reader.markDispatched(id);
    const first = (await reader.find(id))?.dispatched_at;
    await reader.markDispatched(id);
    expect(first).toBeInstanceOf(Date);
    expect((await reader.find(id))?.dispatched_at).toEqual(first as Date);
    expect(await reader.find("not-a-uuid")).toBeUndefined();
  });

  test("a message added in a transaction that rolls back never leaves", async () => {
    let id = "";
    await db.current.sql
      .begin(async (tx) => {
        id = await createPostgresNotificationOutbox(tx).add("fulfillment.failed", {});
        throw new Error("rolled back");
      })
      .catch(() => undefined);
    expect(await createPostgresNotificationOutboxReader(db.current.sql).find(id)).toBeUndefined();
  });

  test("stale lists what is older than asked and still not dispatched, oldest first", async () => {
    const outbox = createPostgresNotificationOutbox(db.current.sql);
    const reader = createPostgresNotificationOutboxReader(db.current.sql);
    const old = await outbox.add("fulfillment.ready", {});
    const older = await outbox.add("fulfillment.ready", {});
    const sent = await outbox.add("fulfillment.ready", {});
    const fresh = await outbox.add("fulfillment.ready", {});
    await db.current.sql`update outbox set created_at = now() - interval '10 minutes' where id = ${old}`;
    await db.current.sql`update outbox set created_at = now() - interval '20 minutes' where id in (${older}, ${sent})`;
    await reader.markDispatched(sent);
    const stale = (await reader.stale(300, 10)).map((message) => message.id);
    expect(stale.filter((id) => [old, older, sent, fresh].includes(id))).toEqual([older, old]);
  });
});
