import type { NewInboxEntry, WebhookInboxWriter } from "../../application/payments/inbox-ports.ts";
import type { NewJob } from "../../application/shared/jobs.ts";
import { insertJobs } from "../jobs/job-insert.ts";
import { JOB_NOTIFY_CHANNEL, type JobWakeUp, wakeJobWorkers } from "../jobs/job-wake-up.ts";
import { isDatabaseUnavailable, type Sql } from "./database.ts";

/** Entries per transaction at most: a burst larger than this is written in several. */
export const WEBHOOK_BATCH_MAX = 128;

interface Pending {
  readonly entry: NewInboxEntry;
  readonly jobFor: ((inboxId: string) => NewJob) | null;
  readonly resolve: (result: { duplicate: boolean }) => void;
  readonly reject: (error: unknown) => void;
}

const keyOf = (entry: NewInboxEntry) => `${entry.gateway}\u0000${entry.event_id}`;

/** One row of the batch as the statement reads it (`json_to_recordset`). */
interface BatchRow extends NewInboxEntry {
  readonly id: string;
  readonly job_kind: string | null;
  readonly job_payload: Readonly<Record<string, unknown>> | null;
  readonly job_run_at: string | null;
  readonly job_dedupe_key: string | null;
  readonly job_max_attempts: number | null;
}

/**
 * Writes one batch as ONE statement, hence one transaction, committed before the result comes back
 * (the driver resolves a query at ReadyForQuery, which follows the commit): the inbox rows (`on
 * conflict (gateway, event_id) do nothing`), the jobs of the rows that were new, and one
 * `pg_notify` per job kind when the wake-up is a notification. The batch travels as one JSON
 * parameter, so the statement text never changes and PostgreSQL, not the event loop, takes the
 * rows apart. The inbox ids are chosen here, so each job is known before the insert; only the jobs
 * of rows actually inserted are written. An event twice in the batch is written once, for its first
 * caller; the others are duplicates. Returns, per pending entry, whether it was a duplicate.
 */
async function writeBatch(sql: Sql, wake: JobWakeUp, batch: readonly Pending[]): Promise<boolean[]> {
  const first = new Map<string, { readonly index: number; readonly id: string }>();
  const rows: BatchRow[] = [];
  batch.forEach((pending, index) => {
    const key = keyOf(pending.entry);
    if (first.has(key)) return;
    const id = crypto.randomUUID();
    first.set(key, { index, id });
    const job = pending.jobFor?.(id);
    rows.push({
      ...pending.entry,
      id,
      job_kind: job?.kind ?? null,
      job_payload: job?.payload ?? null,
      job_run_at: job?.runAt?.toISOString() ?? null,
      job_dedupe_key: job?.dedupeKey ?? null,
      job_max_attempts: job?.maxAttempts ?? null,
    });
  });
  // One order for the locks every batch takes, so two instances storing the same events cannot deadlock.
  rows.sort((a, b) => (a.gateway === b.gateway ? compare(a.event_id, b.event_id) : compare(a.gateway, b.gateway)));
  const notify = wake === "notify" ? JOB_NOTIFY_CHANNEL : null;
  // The jobs of the rows actually stored, added by the queue's own insert.
  const jobsOfStoredRows = sql`
    select job_kind as kind, job_payload as payload, job_run_at as run_at, job_dedupe_key as dedupe_key,
      job_max_attempts as max_attempts
    from input join stored using (id)
    where job_kind is not null`;
  const [result] = await sql<{ stored: string[]; kinds: string[] }[]>`
    with input as (
      select * from json_to_recordset(${rows as never}::json) as input (
        id uuid, gateway text, event_id text, environment text, event_type text, kind text, payload text, event jsonb,
        job_kind text, job_payload jsonb, job_run_at timestamptz, job_dedupe_key text, job_max_attempts integer
      )
    ), stored as (
      insert into webhook_inbox (id, gateway, event_id, environment, event_type, kind, payload, event)
      select id, gateway, event_id, environment, event_type, kind, payload, event from input
      on conflict (gateway, event_id) do nothing
      returning id
    ), enqueued as (${insertJobs(sql, jobsOfStoredRows)}), kinds as (
      select distinct kind from enqueued
    ), woken as (
      select pg_notify(${notify}::text, kind) from kinds where ${notify}::text is not null
    )
    select array(select id::text from stored) as stored, array(select kind from kinds) as kinds,
           (select count(*) from woken) as woken`;
  const stored = new Set(result?.stored);
  // Embedded mode wakes its workers in process, once committed; a lost wake-up costs one poll.
  if (notify === null)
    for (const kind of result?.kinds ?? []) await wakeJobWorkers(sql, wake, kind).catch(() => undefined);
  return batch.map((pending, index) => {
    const row = first.get(keyOf(pending.entry));
    return row?.index !== index || !stored.has(row.id);
  });
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * True for a failure one entry of a batch may have caused: anything but the database out of reach
 * or a cancelled statement (57014, a time-out), which would fail every entry alike. A value
 * PostgreSQL refuses (class 22), a broken constraint (23), an index row too large (54000), a
 * deadlock (40P01) or an error thrown while the batch was built: each entry is then tried alone, so
 * one bad event never fails the others.
 */
function mayComeFromOneEntry(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return true;
  return !isDatabaseUnavailable(error) && code !== "57014";
}

/**
 * Group commit for verified webhooks. An entry that arrives while no batch is in flight starts one
 * at once; entries that arrive while one is in flight queue, and when it commits the next batch
 * takes all of them (up to `maxBatch`). One batch is one statement, so one transaction, and every
 * caller is answered only once the transaction holding its entry has committed, with the server's
 * durability (`synchronous_commit` as configured, on by default). One batch is in flight at a
 * time: a burst costs one commit and one round trip per batch instead of five per event.
 *
 * Failures: an error one entry can cause (see `mayComeFromOneEntry`) has the batch written again,
 * one entry per transaction in arrival order, so each caller gets its own outcome and a repeated
 * event is still stored once. Any other error (the database out of reach, a lost connection) is
 * given to every caller of that batch (a 503 at the HTTP edge) and the next batch starts afresh.
 * A failed statement rolled back as a whole, so nothing of it stays.
 */
export function createPostgresWebhookInboxWriter(deps: {
  sql: Sql;
  wake: JobWakeUp;
  maxBatch?: number;
  /** Told the size of every batch written (tests). */
  onBatch?: (size: number) => void;
}): WebhookInboxWriter {
  const { sql, wake } = deps;
  const maxBatch = deps.maxBatch ?? WEBHOOK_BATCH_MAX;
  const queue: Pending[] = [];
  let draining = false;

  const write = (batch: readonly Pending[]) => {
    deps.onBatch?.(batch.length);
    return writeBatch(sql, wake, batch);
  };

  async function flush(batch: readonly Pending[]) {
    try {
      const duplicates = await write(batch);
      for (const [index, pending] of batch.entries()) pending.resolve({ duplicate: duplicates[index] ?? false });
      return;
    } catch (error) {
      if (batch.length === 1 || !mayComeFromOneEntry(error)) {
        for (const pending of batch) pending.reject(error);
        return;
      }
    }
    // One at a time, in arrival order, so a repeated event is still stored once.
    for (const pending of batch) {
      try {
        const [duplicate] = await write([pending]);
        pending.resolve({ duplicate: duplicate ?? false });
      } catch (error) {
        pending.reject(error);
      }
    }
  }

  async function drain() {
    try {
      while (queue.length > 0) await flush(queue.splice(0, maxBatch));
    } finally {
      draining = false;
    }
  }

  return {
    accept(entry, jobFor) {
      return new Promise((resolve, reject) => {
        queue.push({ entry, jobFor, resolve, reject });
        if (draining) return;
        draining = true;
        // After this turn of the event loop, so requests read in the same turn start as one batch
        // (started from a microtask, the first of them went alone: one batch in six held one entry).
        setImmediate(() => void drain());
      });
    },
  };
}
