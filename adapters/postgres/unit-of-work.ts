import type { JobScheduler } from "../../application/shared/jobs.ts";
import type { TransactionScope, UnitOfWork } from "../../application/shared/unit-of-work.ts";
import { createPostgresAuditTrail } from "./audit-trail.ts";
import type { Queryable, Sql } from "./database.ts";
import { createPostgresEventPublisher } from "./event-publisher.ts";
import { createPostgresFulfillmentRepository } from "./fulfillment-repository.ts";
import { createPostgresOrderLedger } from "./order-ledger.ts";
import { createPostgresOutbox } from "./outbox.ts";
import { createPostgresPaymentLedger } from "./payment-ledger.ts";
import { createPostgresSubscriptionRepository } from "./subscription-repository.ts";
import { createPostgresWebhookInbox } from "./webhook-inbox.ts";

/** Every repository of the scope bound to one transaction: it all commits together, or none of it. */
export function createPostgresUnitOfWork(sql: Sql, jobsFor: (tx: Queryable) => JobScheduler): UnitOfWork {
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
        };
        return work(scope);
      }) as ReturnType<typeof work>;
    },
  };
}
