import { describe, expect, test } from "bun:test";
import { loadMigrations, migrate } from "../../../../adapters/postgres/migrate.ts";
import { createPostgresWebhookInboxReader } from "../../../../adapters/postgres/webhook-inbox-reader.ts";
import { decodeGatewayEvent } from "../../../../domain/payments/gateway-event-codec.ts";
import { createTestDatabase, type TestDatabase } from "../../../support/database.ts";

/** A database as it was before migration 28, with the given inbox rows stored then. */
async function withLegacyRows(
  run: (db: TestDatabase, migrations: Awaited<ReturnType<typeof loadMigrations>>) => Promise<void>,
) {
  const db = await createTestDatabase({ migrated: false });
  try {
    const migrations = await loadMigrations();
    await migrate(
      db.sql,
      migrations.filter((m) => m.version < 28),
    );
    await run(db, migrations);
  } finally {
    await db.drop();
  }
}

const STRIPE_BODY = JSON.stringify({ id: "evt_old_paid", type: "checkout.session.completed", data: { object: {} } });

describe("migration 28: every inbox entry holds its normalized event", () => {
  test("an entry stored before the event was kept, already processed, reads back as ignored with its type", async () => {
    await withLegacyRows(async (db, migrations) => {
      const [row] = await db.sql<{ id: string }[]>`
        insert into webhook_inbox (gateway, event_id, event_type, kind, payload, processed_at)
        values ('gateway_b', 'evt_old_paid', 'checkout.session.completed', 'paid', ${STRIPE_BODY}, now())
        returning id`;
      await db.sql`
        insert into webhook_inbox (gateway, event_id, event_type, kind, payload)
        values ('gateway_a', 'evt_old_ignored', 'customer.created', 'ignored', '{}')`;
      await migrate(db.sql, migrations);

      const inbox = createPostgresWebhookInboxReader(db.sql);
      const entry = await inbox.find(row?.id ?? "");
      expect(entry).toMatchObject({ payload: STRIPE_BODY, environment: null });
      expect(decodeGatewayEvent(entry?.event)).toStrictEqual({
        kind: "ignored",
        gateway: "gateway_b",
        event_id: "evt_old_paid",
        type: "checkout.session.completed",
      });
      const [ignored] = await db.sql<{ event: unknown }[]>`
        select event from webhook_inbox where event_id = 'evt_old_ignored'`;
      expect(decodeGatewayEvent(ignored?.event)).toMatchObject({ kind: "ignored", type: "customer.created" });
      const [nulls] = await db.sql<{ count: number }[]>`
        select count(*)::int as count from webhook_inbox where event is null`;
      expect(nulls?.count).toBe(0);
    });
  });

  test("an entry still waiting to be acted on stops the migration, which changes nothing", async () => {
    await withLegacyRows(async (db, migrations) => {
      await db.sql`
        insert into webhook_inbox (gateway, event_id, event_type, kind, payload)
        values ('gateway_b', 'evt_old_waiting', 'checkout.session.completed', 'paid', ${STRIPE_BODY})`;
      await expect(migrate(db.sql, migrations)).rejects.toThrow("1 unprocessed event(s)");
      const [row] = await db.sql<{ event: unknown }[]>`select event from webhook_inbox`;
      expect(row?.event).toBeNull();
      const [applied] = await db.sql<{ count: number }[]>`
        select count(*)::int as count from schema_migrations where version = 28`;
      expect(applied?.count).toBe(0);
    });
  });
});
