import type { WebhookUnitOfWork } from "../../application/outgoing-webhooks/ports.ts";
import type { JobScheduler } from "../../application/shared/jobs.ts";
import { createPostgresAuditLogWriter } from "./audit-log-writer.ts";
import type { Queryable, Sql } from "./database.ts";
import { createPostgresWebhookDeliveryRepository } from "./webhook-delivery-repository.ts";
import { createPostgresWebhookEndpointRepository, type SecretCipher } from "./webhook-endpoint-repository.ts";
import { createPostgresWebhookReplayRepository } from "./webhook-replay-repository.ts";

/** Endpoints, deliveries, replays, their jobs and the audit trail bound to one transaction. */
export function createPostgresWebhookUnitOfWork(
  sql: Sql,
  deps: { readonly jobsFor: (tx: Queryable) => JobScheduler; readonly cipher: SecretCipher },
): WebhookUnitOfWork {
  return {
    run(work) {
      return sql.begin((tx) =>
        work({
          endpoints: createPostgresWebhookEndpointRepository(tx, deps.cipher),
          deliveries: createPostgresWebhookDeliveryRepository(tx, deps.cipher),
          replays: createPostgresWebhookReplayRepository(tx),
          jobs: deps.jobsFor(tx),
          audit: createPostgresAuditLogWriter(tx),
        }),
      ) as ReturnType<typeof work>;
    },
  };
}
