import { describe, expect, test } from "bun:test";
import { pruneHistory } from "../../../adapters/postgres/history-retention.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();

async function anEmail(state: string, age: string) {
  const [row] = await db.current.sql<{ id: string }[]>`
    insert into emails (idempotency_key, template, recipient, data, message_id, state, created_at)
    values (${crypto.randomUUID()}, 'fulfillment.ready', 'ada@example.com', '{}', ${`<${crypto.randomUUID()}@x>`},
            ${state}, now() - ${age}::interval)
    returning id`;
  return row?.id ?? "";
}

async function anEvent(age: string) {
  const [row] = await db.current.sql<{ id: string }[]>`
    insert into outgoing_events (type, data, created_at) values ('order.paid', '{}', now() - ${age}::interval) returning id`;
  return row?.id ?? "";
}

async function aDelivery(eventId: string, state: string, age: string) {
  const [endpoint] = await db.current.sql<{ id: string }[]>`
    insert into webhook_endpoints (url, events, secret_iv, secret_ciphertext)
    values ('https://crm.example.com/hooks', '{order.paid}', '\\x00', '\\x00') returning id`;
  const [row] = await db.current.sql<{ id: string }[]>`
    insert into webhook_deliveries (endpoint_id, event_id, event_type, state, created_at)
    values (${endpoint?.id ?? ""}, ${eventId}, 'order.paid', ${state}, now() - ${age}::interval) returning id`;
  return row?.id ?? "";
}

const exists = async (table: string, id: string) =>
  (await db.current.sql`select 1 from ${db.current.sql(table)} where id = ${id}`).length === 1;

describe("pruning history", () => {
  test("old sent and dead emails go; pending ones and recent ones stay", async () => {
    const oldSent = await anEmail("sent", "40 days");
    const oldDead = await anEmail("dead", "40 days");
    const oldPending = await anEmail("pending", "40 days");
    const recent = await anEmail("sent", "1 day");
    expect(await pruneHistory(db.current.sql, { olderThanDays: 30 })).toBeGreaterThanOrEqual(2);
    expect(await exists("emails", oldSent)).toBeFalse();
    expect(await exists("emails", oldDead)).toBeFalse();
    expect(await exists("emails", oldPending)).toBeTrue();
    expect(await exists("emails", recent)).toBeTrue();
  });

  test("old finished deliveries go, then their events; a pending delivery keeps its event", async () => {
    const finished = await anEvent("40 days");
    const done = await aDelivery(finished, "succeeded", "40 days");
    const waiting = await anEvent("40 days");
    const pending = await aDelivery(waiting, "pending", "40 days");
    const orphan = await anEvent("40 days");
    const fresh = await anEvent("1 hour");
    await pruneHistory(db.current.sql, { olderThanDays: 30, batchSize: 1 });
    expect(await exists("webhook_deliveries", done)).toBeFalse();
    expect(await exists("outgoing_events", finished)).toBeFalse();
    expect(await exists("webhook_deliveries", pending)).toBeTrue();
    expect(await exists("outgoing_events", waiting)).toBeTrue();
    expect(await exists("outgoing_events", orphan)).toBeFalse();
    expect(await exists("outgoing_events", fresh)).toBeTrue();
  });

  test("an old event whose fan-out has not run yet stays", async () => {
    const event = await anEvent("40 days");
    await db.current
      .sql`insert into jobs (kind, payload) values ('webhook_fanout', ${db.current.sql.json({ event_id: event })})`;
    await pruneHistory(db.current.sql, { olderThanDays: 30 });
    expect(await exists("outgoing_events", event)).toBeTrue();
  });

  test("an old sign-in count goes on its own: the same account's recent count from another address stays", async () => {
    await db.current.sql`
      insert into sign_in_attempts (email, client, failures, last_attempt_at) values
        ('ada@example.com', '203.0.113.7', 9, now() - interval '40 days'),
        ('ada@example.com', '', 30, now())`;
    await pruneHistory(db.current.sql, { olderThanDays: 30 });
    const left = await db.current.sql`select client, failures from sign_in_attempts where email = 'ada@example.com'`;
    expect(left.map((row) => ({ ...row }))).toEqual([{ client: "", failures: 30 }]);
  });

  test("an idempotency key goes after its 24 hours, whatever its state; a younger one stays", async () => {
    const caller = `user:${crypto.randomUUID()}`;
    await db.current.sql`
      insert into idempotent_requests (caller, route, key, request_hash, state, created_at) values
        (${caller}, 'POST /api/admin/products', 'old', 'h', 'in_progress', now() - interval '25 hours'),
        (${caller}, 'POST /api/admin/products', 'young', 'h', 'in_progress', now() - interval '23 hours')`;
    await pruneHistory(db.current.sql, { olderThanDays: 30 });
    const left = await db.current.sql<{ key: string }[]>`select key from idempotent_requests where caller = ${caller}`;
    expect(left.map((row) => row.key)).toEqual(["young"]);
  });
});
