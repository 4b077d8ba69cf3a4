import { describe, expect, test } from "bun:test";
import { readQueueFigures } from "../../../adapters/postgres/queue-figures.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();

describe("the queue figures read from the database", () => {
  test("jobs by kind and state, the oldest due job's wait, and the inbox's backlog and lag", async () => {
    const { sql } = db.current;
    const empty = await readQueueFigures(sql);
    expect(empty).toMatchObject({
      jobs: [],
      oldestDueJobSeconds: 0,
      webhookInboxPending: 0,
      webhookInboxLagSeconds: 0,
    });

    await sql`
      insert into jobs (kind, state, run_at, locked_by, locked_until) values
        ('send_email', 'pending', now() - interval '90 seconds', null, null),
        ('send_email', 'pending', now() - interval '5 seconds', null, null),
        ('send_email', 'pending', now() + interval '1 hour', null, null),
        ('send_email', 'done', now() - interval '1 day', null, null),
        ('deliver_webhook', 'running', now(), 'worker-1', now() + interval '30 seconds'),
        ('deliver_webhook', 'dead', now() - interval '2 hours', null, null)`;
    await sql`
      insert into webhook_inbox (gateway, event_id, event_type, kind, payload, event, received_at, processed_at) values
        ('gateway_a', 'evt_1', 'transaction.completed', 'payment', '{}', '{}', now() - interval '40 seconds', null),
        ('gateway_b', 'evt_2', 'invoice.paid', 'payment', '{}', '{}', now() - interval '10 seconds', null),
        ('gateway_b', 'evt_3', 'invoice.paid', 'payment', '{}', '{}', now() - interval '1 hour', now()),
        ('gateway_b', 'evt_4', 'customer.updated', 'ignored', '{}', '{}', now() - interval '2 hours', null)`;

    const figures = await readQueueFigures(sql);
    const jobs = Object.fromEntries(figures.jobs.map((row) => [`${row.labels.kind}/${row.labels.state}`, row.count]));
    // Done jobs are history, not queue: they are left out.
    expect(jobs).toEqual({ "send_email/pending": 3, "deliver_webhook/running": 1, "deliver_webhook/dead": 1 });
    // The job due 90 s ago waits longest; the one due in an hour is not waiting yet.
    expect(figures.oldestDueJobSeconds).toBeGreaterThanOrEqual(90);
    expect(figures.oldestDueJobSeconds).toBeLessThan(120);
    expect(figures.webhookInboxPending).toBe(2);
    expect(figures.webhookInboxLagSeconds).toBeGreaterThanOrEqual(40);
    expect(figures.webhookInboxLagSeconds).toBeLessThan(70);
  });
});
