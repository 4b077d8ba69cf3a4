import { describe, expect, test } from "bun:test";
import { createPostgresAuditLogReader } from "../../../adapters/postgres/audit-log-reader.ts";
import { createPostgresAuditLogWriter } from "../../../adapters/postgres/audit-log-writer.ts";
import { encodeCursor } from "../../../adapters/postgres/cursor.ts";
import type { AuditEntry } from "../../../application/audit/ports.ts";
import { ValidationFailed } from "../../../domain/shared/errors.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();

const anEntry = (overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  actor_id: crypto.randomUUID(),
  action: "product.update",
  target_type: "product",
  target_id: crypto.randomUUID(),
  summary: {},
  ...overrides,
});

describe("the postgres audit trail", () => {
  test("writes an entry in the caller's transaction: rolled back with it, kept with it", async () => {
    const kept = anEntry();
    const dropped = anEntry();
    await db.current.sql.begin((tx) => createPostgresAuditLogWriter(tx).record(kept));
    await db.current.sql
      .begin(async (tx) => {
        await createPostgresAuditLogWriter(tx).record(dropped);
        throw new Error("the change failed");
      })
      .catch(() => undefined);
    const log = createPostgresAuditLogReader(db.current.sql);
    expect((await log.list({ actor_id: kept.actor_id }, { limit: 10 })).items).toHaveLength(1);
    expect((await log.list({ actor_id: dropped.actor_id }, { limit: 10 })).items).toEqual([]);
  });

  test("redacts whatever summary it is given before it is stored", async () => {
    const entry = anEntry({ summary: { live: { api_key: "pdl_live_secret", base_url: "https://x.example" } } });
    await createPostgresAuditLogWriter(db.current.sql).record(entry);
    const [row] = await db.current.sql<{ summary: unknown }[]>`
      select summary from audit_log where actor_id = ${entry.actor_id}`;
    expect(row?.summary).toEqual({ live: { api_key: "[redacted]", base_url: "https://x.example" } });
  });
});

describe("the postgres audit log", () => {
  test("lists newest first, narrowed by actor, target and action together, page by page", async () => {
    const actor = crypto.randomUUID();
    const target = crypto.randomUUID();
    const trail = createPostgresAuditLogWriter(db.current.sql);
    await trail.record(anEntry({ actor_id: actor, target_id: target, action: "product.create" }));
    await trail.record(anEntry({ actor_id: actor, target_id: target, summary: { n: 1 } }));
    await trail.record(anEntry({ actor_id: actor, summary: { n: 2 } }));
    await trail.record(anEntry({ target_id: target }));
    const log = createPostgresAuditLogReader(db.current.sql);

    const mine = await log.list({ actor_id: actor }, { limit: 2 });
    expect(mine.items.map((item) => item.summary)).toEqual([{ n: 2 }, { n: 1 }]);
    expect(mine.items[0]).toMatchObject({ id: expect.stringMatching(/^\d+$/), actor_id: actor, at: expect.any(Date) });
    const rest = await log.list({ actor_id: actor }, { limit: 2, cursor: mine.next_cursor ?? "" });
    expect(rest.items.map((item) => item.action)).toEqual(["product.create"]);
    expect(rest.next_cursor).toBeNull();

    expect((await log.list({ target_id: target }, { limit: 10 })).items).toHaveLength(3);
    const narrowed = await log.list({ actor_id: actor, target_id: target, action: "product.update" }, { limit: 10 });
    expect(narrowed.items.map((item) => item.summary)).toEqual([{ n: 1 }]);
  });

  test("orders entries by number, not as text, however many digits their ids have", async () => {
    const actor = crypto.randomUUID();
    const trail = createPostgresAuditLogWriter(db.current.sql);
    for (let n = 0; n < 12; n++) await trail.record(anEntry({ actor_id: actor, summary: { n } }));
    const log = createPostgresAuditLogReader(db.current.sql);
    const first = await log.list({ actor_id: actor }, { limit: 5 });
    const second = await log.list({ actor_id: actor }, { limit: 100, cursor: first.next_cursor ?? "" });
    expect([...first.items, ...second.items].map((item) => item.summary.n)).toEqual([
      11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
    ]);
  });

  test("an actor id that is no UUID names nobody; a cursor it did not issue is refused", async () => {
    const log = createPostgresAuditLogReader(db.current.sql);
    expect(await log.list({ actor_id: "nobody" }, { limit: 10 })).toEqual({ items: [], next_cursor: null });
    await expect(log.list({}, { limit: 10, cursor: "garbage" })).rejects.toBeInstanceOf(ValidationFailed);
    const forged = encodeCursor(["1; drop table audit_log"]);
    await expect(log.list({}, { limit: 10, cursor: forged })).rejects.toBeInstanceOf(ValidationFailed);
  });
});
