import type { ChangeSignal } from "../../application/shared/ports.ts";
import type { Queryable } from "../postgres/database.ts";

/** The ChangeSignal topic job workers subscribe to. */
export const JOB_WAKE_TOPIC = "jobs";
/** What createPostgresChangeSignal LISTENs on for JOB_WAKE_TOPIC: its `mkt_` prefix plus the topic. */
export const JOB_NOTIFY_CHANNEL = `mkt_${JOB_WAKE_TOPIC}`;

/**
 * How new work reaches the workers. `"notify"` (a real server): `pg_notify` through the caller's
 * own connection, so inside a transaction PostgreSQL sends it on commit and drops it on rollback,
 * to every instance. A signal (embedded mode): published in-process at once, see
 * postgres-job-scheduler.ts for why that is safe there.
 */
export type JobWakeUp = "notify" | Pick<ChangeSignal, "publish">;

export async function wakeJobWorkers(sql: Queryable, wake: JobWakeUp, kind: string): Promise<void> {
  if (wake === "notify") await sql`select pg_notify(${JOB_NOTIFY_CHANNEL}, ${kind})`;
  else await wake.publish(JOB_WAKE_TOPIC);
}
