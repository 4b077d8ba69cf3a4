import { describe, expect, test } from "bun:test";
import postgres from "postgres";
import { JOB_NOTIFY_CHANNEL } from "../../../adapters/jobs/job-wake-up.ts";
import { isDatabaseUnavailable, openDatabase } from "../../../adapters/postgres/database.ts";
import { createPostgresWebhookInboxWriter } from "../../../adapters/postgres/webhook-inbox-writer.ts";
import type { NewInboxEntry } from "../../../application/payments/inbox-ports.ts";
import { paymentEventJob } from "../../../application/payments/jobs.ts";
import { decodeGatewayEvent, encodeGatewayEvent } from "../../../domain/payments/gateway-event-codec.ts";
import { aPaidEvent, ONE_OF_EACH_KIND } from "../../support/builders/gateway-events.ts";
import { hasRealPostgres, useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();

const anEntry = (event: Parameters<typeof encodeGatewayEvent>[0] = aPaidEvent({ order_id: "o" })): NewInboxEntry => ({
  gateway: event.gateway,
  event_id: `${event.event_id}-${crypto.randomUUID()}`,
  environment: "sandbox",
  event_type: event.kind === "ignored" ? event.type : event.kind,
  kind: event.kind,
  payload: JSON.stringify(event),
  event: encodeGatewayEvent(event),
});

/** The job receive-webhook asks for. */
const jobFor = (inboxId: string) => paymentEventJob({ inbox_id: inboxId });

/** An intake on a pool of its own, with every batch size recorded. */
async function anIntake(options: { poolMax?: number } = {}) {
  const database = await openDatabase({
    url: db.current.url,
    dataDir: "",
    poolMax: Math.min(options.poolMax ?? 4, db.current.poolMax),
  });
  db.onTeardown(() => database.close(1));
  const batches: number[] = [];
  const intake = createPostgresWebhookInboxWriter({
    sql: database.sql,
    wake: hasRealPostgres ? "notify" : { publish: async () => {} },
    onBatch: (size) => batches.push(size),
  });
  return { intake, batches, sql: database.sql };
}

async function rowsOf(eventIds: readonly string[]) {
  const sql = db.current.sql;
  const inbox = await sql<{ id: string; event_id: string; kind: string; environment: string; payload: string }[]>`
    select id, event_id, kind, environment, payload from webhook_inbox where event_id in ${sql(eventIds as string[])}`;
  const ids = inbox.map((row) => `inbox:${row.id}`);
  const jobs = ids.length
    ? await sql<{ kind: string; payload: { inbox_id: string }; dedupe_key: string; state: string }[]>`
        select kind, payload, dedupe_key, state from jobs where dedupe_key in ${sql(ids)}`
    : [];
  return { inbox, jobs };
}

const codeOf = (error: unknown) => (error as { code?: string } | undefined)?.code;

describe("PostgresWebhookIntake (group commit)", () => {
  test("200 distinct events at once: 200 rows, 200 jobs, every caller told it was new, in fewer transactions", async () => {
    const { intake, batches } = await anIntake();
    const entries = Array.from({ length: 200 }, () => anEntry());
    const receipts = await Promise.all(entries.map((entry) => intake.accept(entry, jobFor)));
    expect(receipts).toEqual(entries.map(() => ({ duplicate: false })));
    const { inbox, jobs } = await rowsOf(entries.map((entry) => entry.event_id));
    expect(inbox).toHaveLength(200);
    expect(jobs).toHaveLength(200);
    expect(jobs.map((job) => job.payload.inbox_id).sort()).toEqual(inbox.map((row) => row.id).sort());
    expect(jobs.every((job) => job.kind === "payment_event" && job.state === "pending")).toBe(true);
    expect(batches.reduce((sum, size) => sum + size, 0)).toBe(200);
    expect(batches.length).toBeLessThan(200);
    expect(Math.max(...batches)).toBeLessThanOrEqual(128);
  });

  test("the same event 20 times at once: one row, one job, 19 duplicates", async () => {
    const { intake } = await anIntake();
    const entry = anEntry();
    const receipts = await Promise.all(Array.from({ length: 20 }, () => intake.accept({ ...entry }, jobFor)));
    expect(receipts.filter((receipt) => !receipt.duplicate)).toHaveLength(1);
    expect(receipts.filter((receipt) => receipt.duplicate)).toHaveLength(19);
    const { inbox, jobs } = await rowsOf([entry.event_id]);
    expect(inbox).toHaveLength(1);
    expect(jobs).toHaveLength(1);
  });

  test("the same event spread over successive batches is still stored once", async () => {
    const { intake, batches } = await anIntake();
    const entry = anEntry();
    const receipts = [];
    for (let wave = 0; wave < 3; wave++)
      receipts.push(...(await Promise.all(Array.from({ length: 5 }, () => intake.accept(entry, jobFor)))));
    expect(batches).toEqual([5, 5, 5]);
    expect(receipts.filter((receipt) => !receipt.duplicate)).toHaveLength(1);
    expect((await rowsOf([entry.event_id])).jobs).toHaveLength(1);
  });

  test("one batch mixing an event already stored, one sent twice, an ignored one and new ones", async () => {
    const { intake, batches } = await anIntake();
    const stored = anEntry();
    await intake.accept(stored, jobFor);
    const twice = anEntry();
    const ignored = anEntry(ONE_OF_EACH_KIND.ignored);
    const fresh = [anEntry(), anEntry(ONE_OF_EACH_KIND.refunded), anEntry(ONE_OF_EACH_KIND.renewed)];
    const receipts = await Promise.all([
      intake.accept(stored, jobFor),
      intake.accept(twice, jobFor),
      intake.accept(ignored, null),
      intake.accept(twice, jobFor),
      ...fresh.map((entry) => intake.accept(entry, jobFor)),
    ]);
    expect(batches).toEqual([1, 7]);
    expect(receipts.map((receipt) => receipt.duplicate)).toEqual([true, false, false, true, false, false, false]);

    const all = [stored, twice, ignored, ...fresh];
    const { inbox, jobs } = await rowsOf(all.map((entry) => entry.event_id));
    expect(inbox).toHaveLength(6);
    const ignoredRow = inbox.find((row) => row.event_id === ignored.event_id);
    expect(ignoredRow).toMatchObject({ kind: "ignored", environment: "sandbox", payload: ignored.payload });
    expect(jobs).toHaveLength(5);
    expect(jobs.map((job) => job.payload.inbox_id)).not.toContain(ignoredRow?.id);
  });

  test("what is stored reads back as it was sent: raw body, environment, normalized event", async () => {
    const { intake } = await anIntake();
    const entries = Object.values(ONE_OF_EACH_KIND).map((event) => ({
      ...anEntry(event),
      environment: "live" as const,
    }));
    await Promise.all(entries.map((entry) => intake.accept(entry, null)));
    for (const entry of entries) {
      const [row] = await db.current.sql<
        { payload: string; environment: string; event: unknown; event_type: string }[]
      >`
        select payload, environment, event, event_type from webhook_inbox where event_id = ${entry.event_id}`;
      expect(row).toMatchObject({ payload: entry.payload, environment: "live", event_type: entry.event_type });
      expect(decodeGatewayEvent(row?.event)).toStrictEqual(decodeGatewayEvent(entry.event));
    }
  });

  test("an entry PostgreSQL refuses fails alone: the rest of its batch is stored, nothing of it is", async () => {
    const { intake, batches } = await anIntake();
    const good = [anEntry(), anEntry(), anEntry()];
    const twice = anEntry();
    // A check constraint (environment) and a string jsonb cannot hold (\u0000), each in its own entry.
    const badEnvironment = { ...anEntry(), environment: "staging" as never };
    const nul = anEntry();
    const badEvent = { ...nul, event: { ...nul.event, event: { ...nul.event.event, order_id: "a\u0000b" } } as never };
    const results = await Promise.allSettled([
      intake.accept(good[0] as NewInboxEntry, jobFor),
      intake.accept(badEnvironment, jobFor),
      intake.accept(twice, jobFor),
      intake.accept(good[1] as NewInboxEntry, jobFor),
      intake.accept(badEvent, jobFor),
      intake.accept(twice, jobFor),
      intake.accept(good[2] as NewInboxEntry, null),
    ]);
    expect(results.map((result) => result.status)).toEqual([
      "fulfilled",
      "rejected",
      "fulfilled",
      "fulfilled",
      "rejected",
      "fulfilled",
      "fulfilled",
    ]);
    expect(
      results.map((result) => (result.status === "fulfilled" ? result.value.duplicate : codeOf(result.reason))),
    ).toEqual([false, "23514", false, false, "22P05", true, false]);
    // The whole batch once, then each entry alone.
    expect(batches).toEqual([7, 1, 1, 1, 1, 1, 1, 1]);
    const { inbox, jobs } = await rowsOf([...good, twice, badEnvironment, badEvent].map((entry) => entry.event_id));
    expect(inbox.map((row) => row.event_id).sort()).toEqual([...good, twice].map((entry) => entry.event_id).sort());
    expect(jobs).toHaveLength(3);
    // The intake goes on as before.
    expect(await intake.accept(anEntry(), jobFor)).toEqual({ duplicate: false });
  });

  test("an answer never comes before its commit: another connection sees the row and the job at once", async () => {
    const { intake } = await anIntake();
    const observer = postgres(db.current.url, { max: 1, onnotice: () => {} });
    try {
      const entries = Array.from({ length: 60 }, () => anEntry());
      const seen = await Promise.all(
        entries.map(async (entry) => {
          await intake.accept(entry, jobFor);
          const [row] = await observer<{ rows: number; jobs: number }[]>`
            select (select count(*)::int from webhook_inbox where event_id = ${entry.event_id}) as rows,
                   (select count(*)::int from jobs j join webhook_inbox w on j.dedupe_key = 'inbox:' || w.id
                    where w.event_id = ${entry.event_id}) as jobs`;
          return row;
        }),
      );
      expect(seen).toEqual(entries.map(() => ({ rows: 1, jobs: 1 })));
    } finally {
      await observer.end({ timeout: 1 });
    }
  });

  test.skipIf(!hasRealPostgres)(
    "workers are woken once per batch that enqueued jobs; a batch without a job wakes nobody",
    async () => {
      const { intake } = await anIntake();
      const listener = postgres(db.current.url, { max: 1, onnotice: () => {} });
      const heard: string[] = [];
      try {
        await listener.listen(JOB_NOTIFY_CHANNEL, (kind) => heard.push(kind));
        await Promise.all(Array.from({ length: 10 }, () => intake.accept(anEntry(), jobFor)));
        await intake.accept(anEntry(ONE_OF_EACH_KIND.ignored), null);
        await Bun.sleep(200);
        expect(heard).toEqual(["payment_event"]);
      } finally {
        await listener.end({ timeout: 1 });
      }
    },
  );

  test("an in-process wake-up (embedded mode) is published once per batch with jobs, after its commit", async () => {
    const database = await openDatabase({ url: db.current.url, dataDir: "", poolMax: 1 });
    db.onTeardown(() => database.close(1));
    const entries = Array.from({ length: 8 }, () => anEntry());
    const published: { topic: string; visible: number }[] = [];
    const intake = createPostgresWebhookInboxWriter({
      sql: database.sql,
      wake: {
        async publish(topic) {
          const [row] = await db.current.sql<{ n: number }[]>`
            select count(*)::int as n from webhook_inbox where event_id in ${db.current.sql(entries.map((e) => e.event_id))}`;
          published.push({ topic, visible: row?.n ?? 0 });
        },
      },
    });
    await Promise.all(entries.map((entry) => intake.accept(entry, jobFor)));
    await intake.accept(anEntry(ONE_OF_EACH_KIND.ignored), null);
    expect(published).toEqual([{ topic: "jobs", visible: 8 }]);
  });

  test.skipIf(!hasRealPostgres)(
    "a connection killed mid-batch fails that batch's callers only, stores none of it, and the next batch is stored",
    async () => {
      const { intake, batches } = await anIntake({ poolMax: 2 });
      const locker = postgres(db.current.url, { max: 1, onnotice: () => {} });
      try {
        // Hold the inbox so the first batch waits inside its statement, then kill its connection.
        const locked = Promise.withResolvers<void>();
        const release = Promise.withResolvers<void>();
        const holding = locker.begin(async (tx) => {
          await tx`lock table webhook_inbox in exclusive mode`;
          locked.resolve();
          await release.promise;
        });
        await locked.promise;
        const doomed = Array.from({ length: 5 }, () => anEntry());
        const first = doomed.map((entry) =>
          intake.accept(entry, jobFor).then(
            () => "stored",
            (error) => error,
          ),
        );
        let blocked: { pid: number }[] = [];
        for (let i = 0; i < 100 && blocked.length === 0; i++) {
          await Bun.sleep(20);
          blocked = await db.current.sql<{ pid: number }[]>`
            select pid from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock' and query like '%json_to_recordset%'`;
        }
        expect(blocked).toHaveLength(1);
        // Queued behind the blocked batch: the next one.
        const later = Array.from({ length: 4 }, () => anEntry());
        const second = later.map((entry) => intake.accept(entry, jobFor));
        await db.current.sql`select pg_terminate_backend(${blocked[0]?.pid ?? 0})`;
        const failures = await Promise.all(first);
        release.resolve();
        await holding;
        for (const failure of failures) expect(isDatabaseUnavailable(failure)).toBe(true);
        expect(await Promise.all(second)).toEqual(later.map(() => ({ duplicate: false })));
        expect(batches).toEqual([5, 4]);
        const stored = await rowsOf([...doomed, ...later].map((entry) => entry.event_id));
        expect(stored.inbox.map((row) => row.event_id).sort()).toEqual(later.map((entry) => entry.event_id).sort());
        expect(stored.jobs).toHaveLength(4);
        // The gateway's retry of a failed event is then stored as new.
        expect(await intake.accept(doomed[0] as NewInboxEntry, jobFor)).toEqual({ duplicate: false });
      } finally {
        await locker.end({ timeout: 1 });
      }
    },
  );
});
