import type { OpsAlerts } from "../alerts/ports.ts";
import type { AuditLogWriter } from "../audit/ports.ts";
import type { FulfillmentRepository } from "../fulfillment/ports.ts";
import type { SubscriptionRepository } from "../fulfillment/subscription-ports.ts";
import type { LicenseAdminWriter } from "../licensing/admin-ports.ts";
import type { NotificationOutbox } from "../notifications/ports.ts";
import type { EventPublisher } from "../outgoing-webhooks/ports.ts";
import type { WebhookInboxReader } from "../payments/inbox-ports.ts";
import type { OrderStatusWriter, PaymentLedger } from "../payments/ledger-ports.ts";
import type { JobContext, JobScheduler } from "./jobs.ts";

/** The repositories that must change together, bound to one transaction. */
export interface TransactionScope {
  readonly inbox: WebhookInboxReader;
  readonly orders: OrderStatusWriter;
  readonly payments: PaymentLedger;
  readonly fulfillments: FulfillmentRepository;
  readonly subscriptions: SubscriptionRepository;
  /** Licenses as admins change them. */
  readonly licenses: LicenseAdminWriter;
  readonly outbox: NotificationOutbox;
  readonly jobs: JobScheduler;
  /** Events for the shop's own systems (outgoing webhooks). */
  readonly events: EventPublisher;
  /** Who changed what, for admin actions. */
  readonly audit: AuditLogWriter;
  /** Alerts to operations (an email each, when an address is set). */
  readonly alerts: OpsAlerts;
}

export interface UnitOfWork {
  /**
   * Runs `work` in one transaction. A job's handler passes its context as `job`, so that
   * `scope.jobs.enqueueFollowUp` hands the next step to the worker running that job.
   */
  run<T>(work: (scope: TransactionScope) => Promise<T>, job?: JobContext): Promise<T>;
}
