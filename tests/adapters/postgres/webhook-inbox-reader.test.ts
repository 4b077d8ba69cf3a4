import { describe, expect, test } from "bun:test";
import { createPostgresWebhookInboxReader } from "../../../adapters/postgres/webhook-inbox-reader.ts";
import { createPostgresWebhookInboxWriter } from "../../../adapters/postgres/webhook-inbox-writer.ts";
import type { NewInboxEntry } from "../../../application/payments/inbox-ports.ts";
import { decodeGatewayEvent, encodeGatewayEvent } from "../../../domain/payments/gateway-event-codec.ts";
import { ONE_OF_EACH_KIND } from "../../support/builders/gateway-events.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();

const anEntry = (event: (typeof ONE_OF_EACH_KIND)[keyof typeof ONE_OF_EACH_KIND]): NewInboxEntry => ({
  gateway: event.gateway,
  event_id: `${event.event_id}-${crypto.randomUUID()}`,
  environment: "sandbox",
  event_type: event.kind,
  kind: event.kind,
  payload: JSON.stringify(event),
  event: encodeGatewayEvent(event),
});

/** Stores an entry as a webhook does (through the intake) and gives its id. */
async function stored(entry: NewInboxEntry): Promise<string> {
  const intake = createPostgresWebhookInboxWriter({ sql: db.current.sql, wake: { publish: async () => {} } });
  await intake.accept(entry, null);
  const [row] = await db.current.sql<{ id: string }[]>`
    select id from webhook_inbox where gateway = ${entry.gateway} and event_id = ${entry.event_id}`;
  if (!row) throw new Error("not stored");
  return row.id;
}

describe("PostgresWebhookInbox", () => {
  test("every kind of event reads back from the jsonb column exactly as it was stored", async () => {
    const inbox = createPostgresWebhookInboxReader(db.current.sql);
    for (const event of Object.values(ONE_OF_EACH_KIND)) {
      const entry = anEntry(event);
      const found = await inbox.find(await stored(entry));
      expect(found).toMatchObject({ payload: entry.payload, environment: "sandbox", processed_at: null });
      expect(decodeGatewayEvent(found?.event)).toStrictEqual(event);
    }
  });

  test("marks an entry processed once; an id that is no uuid finds nothing", async () => {
    const inbox = createPostgresWebhookInboxReader(db.current.sql);
    const id = await stored(anEntry(ONE_OF_EACH_KIND.refunded));
    expect(await inbox.markProcessed(id)).toBeTrue();
    expect((await inbox.find(id))?.processed_at).toBeInstanceOf(Date);
    expect(await inbox.markProcessed(id)).toBeFalse();
    expect(await inbox.find("not-a-uuid")).toBeUndefined();
    expect(await inbox.markProcessed("not-a-uuid")).toBeFalse();
  });

  test("an entry without its normalized event cannot be stored", async () => {
    await expect(db.current.sql`
      insert into webhook_inbox (gateway, event_id, event_type, kind, payload)
      values ('gateway_b', ${crypto.randomUUID()}, 'paid', 'paid', '{}')`).rejects.toMatchObject({ code: "23502" });
  });
});
