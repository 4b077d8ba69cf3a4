import { type EventPublisher, WEBHOOK_FANOUT_JOB } from "../../application/outgoing-webhooks/ports.ts";
import type { JobScheduler } from "../../application/shared/jobs.ts";
import type { Queryable } from "./database.ts";

/** Stores the event and schedules its fan-out, both in the caller's transaction. */
export function createPostgresEventPublisher(sql: Queryable, jobs: JobScheduler): EventPublisher {
  return {
    async publish(type, data) {
      const [row] = await sql<{ id: string }[]>`
        insert into outgoing_events (type, data) values (${type}, ${sql.json(data as never)}) returning id`;
      if (!row) throw new Error("outgoing event insert returned no row");
      await jobs.enqueue({ kind: WEBHOOK_FANOUT_JOB, payload: { event_id: row.id }, dedupeKey: `fanout:${row.id}` });
    },
  };
}
