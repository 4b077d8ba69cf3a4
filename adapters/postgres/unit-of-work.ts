import type { OpsAlerts } from "../../application/alerts/ports.ts";
import type { EmailQueue } from "../../application/mail/ports.ts";
import type { JobScheduler } from "../../application/shared/jobs.ts";
import type { TransactionScope, UnitOfWork } from "../../application/shared/unit-of-work.ts";
import { createPostgresAuditTrail } from "./audit-trail.ts";
import type { Queryable, Sql } from "./database.ts";
import { createPostgresEmailQueue } from "./email-store.ts";
import { createPostgresEventPublisher } from "./event-publisher.ts";
import { createPostgresFulfillmentRepository } from "./fulfillment-repository.ts";
import { createPostgresOrderLedger } from "./order-ledger.ts";
import { createPostgresOutbox } from "./outbox.ts";
import { createPostgresPaymentLedger } from "./payment-ledger.ts";
import { createPostgresSubscriptionRepository } from "./subscription-repository.ts";
import { createPostgresWebhookInbox } from "./webhook-inbox.ts";

/** Every repository of the scope bound to one transaction: it all commits together, or none of it. */
export interface UnitOfWorkOptions {
  /** The domain of the Message-IDs of queued emails. */
  readonly mailDomain: string;
  /** The transaction's alerts, given its email queue. */
  readonly alertsFor: (queue: EmailQueue) => OpsAlerts;
}

export function createPostgresUnitOfWork(
  sql: Sql,
  jobsFor: (tx: Queryable) => JobScheduler,
  options: UnitOfWorkOptions,
): UnitOfWork {
  return {
    run(work) {
      return sql.begin((tx) => {
        const jobs = jobsFor(tx);
        const scope: TransactionScope = {
          inbox: createPostgresWebhookInbox(tx),
          orders: createPostgresOrderLedger(tx),
          payments: createPostgresPaymentLedger(tx),
          fulfillments: createPostgresFulfillmentRepository(tx),
          subscriptions: createPostgresSubscriptionRepository(tx),
          outbox: createPostgresOutbox(tx),
          jobs,
          events: createPostgresEventPublisher(tx, jobs),
          audit: createPostgresAuditTrail(tx),
          alerts: options.alertsFor(createPostgresEmailQueue(tx, jobs, options.mailDomain)),
        };
        return work(scope);
      }) as ReturnType<typeof work>;
    },
  };
}
