import { describe, expect, test } from "bun:test";
import { createPostgresWebhookInbox } from "../../../adapters/postgres/webhook-inbox.ts";
import { decodeGatewayEvent, encodeGatewayEvent } from "../../../domain/payments/gateway-event-codec.ts";
import { ONE_OF_EACH_KIND } from "../../support/builders/gateway-events.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();

const anEntry = (event: (typeof ONE_OF_EACH_KIND)[keyof typeof ONE_OF_EACH_KIND]) => ({
  gateway: event.gateway,
  event_id: `${event.event_id}-${crypto.randomUUID()}`,
  environment: "sandbox" as const,
  event_type: event.kind,
  kind: event.kind,
  payload: JSON.stringify(event),
  event: encodeGatewayEvent(event),
});

describe("PostgresWebhookInbox", () => {
  test("every kind of event reads back from the jsonb column exactly as it was stored", async () => {
    const inbox = createPostgresWebhookInbox(db.current.sql);
    for (const event of Object.values(ONE_OF_EACH_KIND)) {
      const entry = anEntry(event);
      const stored = await inbox.insert(entry);
      if (!stored.inserted) throw new Error("not inserted");
      const found = await inbox.find(stored.id);
      expect(found).toMatchObject({ payload: entry.payload, environment: "sandbox", processed_at: null });
      expect(decodeGatewayEvent(found?.event)).toStrictEqual(event);
    }
  });

  test("one entry per gateway and event id", async () => {
    const inbox = createPostgresWebhookInbox(db.current.sql);
    const entry = anEntry(ONE_OF_EACH_KIND.paid);
    expect((await inbox.insert(entry)).inserted).toBe(true);
    expect(await inbox.insert(entry)).toEqual({ inserted: false });
  });

  test("an entry stored before the event was kept reads back without one", async () => {
    const [row] = await db.current.sql<{ id: string }[]>`
      insert into webhook_inbox (gateway, event_id, event_type, kind, payload)
      values ('gateway_b', ${crypto.randomUUID()}, 'paid', 'paid', '{"old":true}') returning id`;
    expect(await createPostgresWebhookInbox(db.current.sql).find(row?.id ?? "")).toMatchObject({
      event: null,
      environment: null,
      payload: '{"old":true}',
    });
  });

  test("marks an entry processed; an id that is no uuid finds nothing", async () => {
    const inbox = createPostgresWebhookInbox(db.current.sql);
    const stored = await inbox.insert(anEntry(ONE_OF_EACH_KIND.refunded));
    if (!stored.inserted) throw new Error("not inserted");
    expect(await inbox.markProcessed(stored.id)).toBeTrue();
    expect((await inbox.find(stored.id))?.processed_at).toBeInstanceOf(Date);
    expect(await inbox.markProcessed(stored.id)).toBeFalse();
    expect(await inbox.find("not-a-uuid")).toBeUndefined();
    expect(await inbox.markProcessed("not-a-uuid")).toBeFalse();
  });
});
