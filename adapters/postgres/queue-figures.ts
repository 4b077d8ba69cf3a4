import type { Sql } from "./database.ts";

export interface CountBy<K extends string> {
  readonly labels: Readonly<Record<K, string>>;
  readonly count: number;
}

/** What the queues hold right now, read from the database: the same for every instance. */
export interface QueueFigures {
  /** Jobs not done, by kind and state (done jobs are history, pruned by the minute tick). */
  readonly jobs: readonly CountBy<"kind" | "state">[];
  /** How long the longest-waiting due job has waited; 0 when none is due. */
  readonly oldestDueJobSeconds: number;
  readonly webhookInboxPending: number;
  /** How long the oldest webhook event not yet acted on has waited; 0 when none. Events stored only to be recognised again (`ignored`) never wait. */
  readonly webhookInboxLagSeconds: number;
  /** Fulfillments not settled (neither active nor cancelled), by driver and status. */
  readonly fulfillments: readonly CountBy<"driver" | "status">[];
  /** Outgoing deliveries not succeeded: pending and dead. */
  readonly webhookDeliveries: readonly CountBy<"state">[];
}

/**
 * Reads the queue figures, one query per table, each from a partial index of the rows in motion
 * (`jobs_claim`/`jobs_by_state`, `jobs_due`, `webhook_inbox_unprocessed`,
 * `fulfillment_records_unsettled`, `webhook_deliveries_unsettled`): what settled rows pile up
 * with history is never counted, so a scrape costs what the queues hold, not what the shop sold.
 */
export async function readQueueFigures(sql: Sql): Promise<QueueFigures> {
  const [jobs, due, inbox, fulfillments, deliveries] = await Promise.all([
    sql<{ kind: string; state: string; count: number }[]>`
      select kind, state, count(*)::int as count from jobs where state in ('pending', 'running', 'dead')
      group by kind, state`,
    sql<{ seconds: number }[]>`
      select coalesce(extract(epoch from now() - min(run_at)), 0)::float8 as seconds
      from jobs where state = 'pending' and run_at <= now()`,
    sql<{ pending: number; seconds: number }[]>`
      select count(*)::int as pending, coalesce(extract(epoch from now() - min(received_at)), 0)::float8 as seconds
      from webhook_inbox where processed_at is null and kind <> 'ignored'`,
    sql<{ driver: string; status: string; count: number }[]>`
      select driver, status, count(*)::int as count from fulfillment_records
      where status not in ('active', 'cancelled') group by driver, status`,
    sql<{ state: string; count: number }[]>`
      select state, count(*)::int as count from webhook_deliveries where state <> 'succeeded' group by state`,
  ]);
  return {
    jobs: jobs.map(({ kind, state, count }) => ({ labels: { kind, state }, count })),
    oldestDueJobSeconds: Math.max(0, due[0]?.seconds ?? 0),
    webhookInboxPending: inbox[0]?.pending ?? 0,
    webhookInboxLagSeconds: Math.max(0, inbox[0]?.seconds ?? 0),
    fulfillments: fulfillments.map(({ driver, status, count }) => ({ labels: { driver, status }, count })),
    webhookDeliveries: deliveries.map(({ state, count }) => ({ labels: { state }, count })),
  };
}
