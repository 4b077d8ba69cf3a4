import { webhookFanoutJob } from "../../application/outgoing-webhooks/jobs.ts";
import type { EventPublisher } from "../../application/outgoing-webhooks/ports.ts";
import type { JobScheduler } from "../../application/shared/jobs.ts";
import type { Queryable } from "./database.ts";

/**
 * Stores the event and schedules its fan-out, both in the caller's transaction, when an endpoint
 * subscribes to its type: an event nobody listens to costs a look at the few endpoints, not a row
 * and a job.
 */
export function createPostgresEventPublisher(sql: Queryable, jobs: JobScheduler): EventPublisher {
  return {
    async publish(type, data) {
      const [row] = await sql<{ id: string }[]>`
        insert into outgoing_events (type, data)
        select ${type}, ${sql.json(data as never)}
        where exists (select 1 from webhook_endpoints where ${type} = any(events))
        returning id`;
      if (!row) return;
      await jobs.enqueue(webhookFanoutJob({ event_id: row.id }));
    },
  };
}
