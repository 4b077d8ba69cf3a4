import type { OpsAlerts } from "../../application/alerts/ports.ts";
import type { EmailQueue } from "../../application/mail/ports.ts";
import type { FollowUp, JobScheduler } from "../../application/shared/jobs.ts";
import type { TransactionScope, UnitOfWork } from "../../application/shared/unit-of-work.ts";
import { createPostgresAuditLogWriter } from "./audit-log-writer.ts";
import type { Queryable, Sql } from "./database.ts";
import { createPostgresEmailQueue } from "./email-queue.ts";
import { createPostgresEventPublisher } from "./event-publisher.ts";
import { createPostgresFulfillmentRepository } from "./fulfillment-repository.ts";
import { createPostgresLicenseAdminWriter } from "./license-admin.ts";
import { createPostgresNotificationOutbox } from "./notification-outbox.ts";
import { createPostgresOrderStatusWriter } from "./order-status-writer.ts";
import { createPostgresPaymentLedger } from "./payment-ledger.ts";
import { createPostgresSubscriptionRepository } from "./subscription-repository.ts";
import { createPostgresWebhookInboxReader } from "./webhook-inbox-reader.ts";

/** Every repository of the scope bound to one transaction: it all commits together, or none of it. */
export interface UnitOfWorkOptions {
  /** The domain of the Message-IDs of queued emails. */
  readonly mailDomain: string;
  /** The transaction's alerts, given its email queue. */
  readonly alertsFor: (queue: EmailQueue) => OpsAlerts;
}

export function createPostgresUnitOfWork(
  sql: Sql,
  jobsFor: (tx: Queryable, followUp?: FollowUp) => JobScheduler,
  options: UnitOfWorkOptions,
): UnitOfWork {
  return {
    run(work, job) {
      return sql.begin((tx) => {
        const jobs = jobsFor(tx, job?.followUp);
        const scope: TransactionScope = {
          inbox: createPostgresWebhookInboxReader(tx),
          orders: createPostgresOrderStatusWriter(tx),
          payments: createPostgresPaymentLedger(tx),
          fulfillments: createPostgresFulfillmentRepository(tx),
          subscriptions: createPostgresSubscriptionRepository(tx),
          licenses: createPostgresLicenseAdminWriter(tx),
          outbox: createPostgresNotificationOutbox(tx),
          jobs,
          events: createPostgresEventPublisher(tx, jobs),
          audit: createPostgresAuditLogWriter(tx),
          alerts: options.alertsFor(createPostgresEmailQueue(tx, jobs, options.mailDomain)),
        };
        return work(scope);
      }) as ReturnType<typeof work>;
    },
  };
}
