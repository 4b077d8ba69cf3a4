import { describe, expect, test } from "bun:test";
import { deleteDoneJobs } from "../../../adapters/jobs/job-cleanup.ts";
import { createPostgresJobAdmin } from "../../../adapters/jobs/postgres-job-admin.ts";
import { createInProcessChangeSignal } from "../../../adapters/signals/in-process-change-signal.ts";
import { ValidationFailed } from "../../../domain/shared/errors.ts";
import { useTestDatabase } from "../../support/database.ts";
import { jobRows, until, useJobTestbed } from "./job-test-kit.ts";

const db = useTestDatabase();
const testbed = useJobTestbed(db);
const sql = () => db.current.sql;

async function insertJob(fields: { kind?: string; state?: string; attempts?: number; last_error?: string }) {
  const [row] = await sql()<{ id: string }[]>`
    insert into jobs (kind, payload, state, attempts, last_error)
    values (${fields.kind ?? "fulfill"}, '{"order_item_id":"i-1"}', ${fields.state ?? "dead"}, ${fields.attempts ?? 8},
            ${fields.last_error ?? "The provider failed with HTTP 503."})
    returning id::text as id`;
  return row?.id ?? "";
}

describe("postgres job admin", () => {
  test("lists dead jobs newest first, filtered by kind, page by page", async () => {
    const admin = createPostgresJobAdmin({ sql: sql(), wake: createInProcessChangeSignal() });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await insertJob({}));
    await insertJob({ state: "done", attempts: 1 });
    await insertJob({ kind: "payment_event" });

    const first = await admin.list({ state: "dead", kind: "fulfill" }, { limit: 2 });
    expect(first.items.map((j) => j.id)).toEqual([ids[2], ids[1]] as string[]);
    expect(first.items[0]).toMatchObject({
      kind: "fulfill",
      state: "dead",
      attempts: 8,
      max_attempts: 8,
      last_error: "The provider failed with HTTP 503.",
      payload: { order_item_id: "i-1" },
    });
    expect(first.next_cursor).not.toBeNull();
    const second = await admin.list({ state: "dead", kind: "fulfill" }, { limit: 2, cursor: first.next_cursor ?? "" });
    expect(second).toEqual({ items: [expect.objectContaining({ id: ids[0] })], next_cursor: null });
    expect((await admin.list({ state: "dead" }, { limit: 10 })).items).toHaveLength(4);
    expect((await admin.list({}, { limit: 10 })).items).toHaveLength(5);
  });

  test("newest first by number, not by text: job 1000000 comes before job 999999", async () => {
    const admin = createPostgresJobAdmin({ sql: sql(), wake: createInProcessChangeSignal() });
    await sql()`select setval(pg_get_serial_sequence('jobs', 'id'), 999998)`;
    const older = await insertJob({ kind: "numbered" });
    const newer = await insertJob({ kind: "numbered" });
    expect([older, newer]).toEqual(["999999", "1000000"]);
    expect((await admin.list({ kind: "numbered" }, { limit: 10 })).items.map((job) => job.id)).toEqual([newer, older]);
  });

  test("caps a page at 100 and rejects a cursor it did not issue", async () => {
    await sql()`insert into jobs (kind, state) select 'bulk', 'pending' from generate_series(1, 105)`;
    const admin = createPostgresJobAdmin({ sql: sql(), wake: createInProcessChangeSignal() });
    expect((await admin.list({}, { limit: 1_000 })).items).toHaveLength(100);
    await expect(admin.list({}, { limit: 10, cursor: "garbage" })).rejects.toBeInstanceOf(ValidationFailed);
    const forged = Buffer.from(JSON.stringify(["1; drop table jobs"])).toString("base64url");
    await expect(admin.list({}, { limit: 10, cursor: forged })).rejects.toBeInstanceOf(ValidationFailed);
  });

  test("redrive runs a dead job again from attempt 1, keeping its last error, and wakes a worker", async () => {
    const signal = createInProcessChangeSignal();
    let ran = 0;
    testbed.worker({ wake: signal, pollIntervalMs: 5_000, handlers: { fulfill: async () => void ran++ } }).start();
    const id = await insertJob({});
    await Bun.sleep(20);

    const redriven = await createPostgresJobAdmin({ sql: sql(), wake: signal }).redrive(id);
    expect(redriven).toMatchObject({
      id,
      state: "pending",
      attempts: 0,
      last_error: "The provider failed with HTTP 503.",
    });
    await until(async () => (await jobRows(sql()))[0]?.state === "done", 1_000);
    expect(ran).toBe(1);
    expect((await jobRows(sql()))[0]).toMatchObject({ attempts: 1, last_error: "The provider failed with HTTP 503." });
  });

  test("redrive leaves anything but a dead job alone", async () => {
    const admin = createPostgresJobAdmin({ sql: sql(), wake: createInProcessChangeSignal() });
    const done = await insertJob({ state: "done", attempts: 1 });
    expect(await admin.redrive(done)).toMatchObject({ id: done, state: "done", attempts: 1 });
    expect(await admin.redrive("999999")).toBeUndefined();
    expect(await admin.redrive("not-an-id")).toBeUndefined();

    // A live job already holds the dead one's dedupe key: redriving would run the work twice.
    const [dead] = await sql()<{ id: string }[]>`
      insert into jobs (kind, state, attempts, dedupe_key) values ('fulfill', 'dead', 8, 'item-1') returning id::text as id`;
    await sql()`insert into jobs (kind, dedupe_key) values ('fulfill', 'item-1')`;
    expect(await admin.redrive(dead?.id ?? "")).toMatchObject({ state: "dead", attempts: 8 });
  });

  test("a redrive writes its audit entry with it; a job left alone, or kept dead by its key, writes none", async () => {
    const admin = createPostgresJobAdmin({ sql: sql(), wake: createInProcessChangeSignal() });
    const actor = crypto.randomUUID();
    const entry = (job: { id: string; kind: string }) => ({
      actor_id: actor,
      action: "job.redrive",
      target_type: "job",
      target_id: job.id,
      summary: { kind: job.kind },
    });
    const dead = await insertJob({});
    const done = await insertJob({ state: "done", attempts: 1 });
    const [keyed] = await sql()<{ id: string }[]>`
      insert into jobs (kind, state, attempts, dedupe_key) values ('fulfill', 'dead', 8, 'item-2') returning id::text as id`;
    await sql()`insert into jobs (kind, dedupe_key) values ('fulfill', 'item-2')`;

    await admin.redrive(dead, entry);
    await admin.redrive(done, entry);
    await admin.redrive(keyed?.id ?? "", entry);

    const written = await sql()`select action, target_id, summary from audit_log where actor_id = ${actor}`;
    expect([...written]).toEqual([{ action: "job.redrive", target_id: dead, summary: { kind: "fulfill" } }]);
  });
});

describe("job cleanup", () => {
  test("deletes done jobs older than the retention, keeping dead and recent ones", async () => {
    await sql()`
      insert into jobs (kind, state, updated_at)
      select 'old', 'done', now() - interval '8 days' from generate_series(1, 7)`;
    await sql()`insert into jobs (kind, state, attempts, updated_at) values ('old_dead', 'dead', 8, now() - interval '30 days')`;
    await sql()`insert into jobs (kind, state, updated_at) values ('recent', 'done', now() - interval '6 days')`;

    expect(await deleteDoneJobs(sql(), { olderThanDays: 7, batchSize: 3 })).toBe(7);
    expect((await jobRows(sql())).map((r) => r.kind)).toEqual(["old_dead", "recent"]);
  });
});
