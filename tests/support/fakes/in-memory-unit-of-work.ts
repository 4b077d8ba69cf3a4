import type { SubscriptionRepository } from "../../../application/fulfillment/ports.ts";
import type { FollowUp, JobScheduler } from "../../../application/shared/jobs.ts";
import type { TransactionScope, UnitOfWork } from "../../../application/shared/unit-of-work.ts";
import { createInMemoryAuditLogWriter } from "./in-memory-audit-log-writer.ts";
import { createInMemoryFulfillmentRepository } from "./in-memory-fulfillment-repository.ts";
import { createInMemoryLicenseAdmin } from "./in-memory-license-admin.ts";
import { createInMemoryNotificationOutbox } from "./in-memory-notification-outbox.ts";
import { createInMemoryOrderStatusWriter } from "./in-memory-order-status-writer.ts";
import { createInMemoryPaymentLedger } from "./in-memory-payment-ledger.ts";
import {
  createInMemorySubscriptionRepository,
  type InMemorySubscriptionRepository,
} from "./in-memory-subscription-repository.ts";
import { createInMemoryWebhookInboxReader } from "./in-memory-webhook-inbox-reader.ts";
import { createRecordingEventPublisher } from "./recording-event-publisher.ts";
import { createRecordingJobScheduler } from "./recording-job-scheduler.ts";
import { createRecordingOpsAlerts } from "./recording-ops-alerts.ts";

const addInterval = (from: Date, interval: "monthly" | "yearly") => {
  const next = new Date(from);
  if (interval === "monthly") next.setUTCMonth(next.getUTCMonth() + 1);
  else next.setUTCFullYear(next.getUTCFullYear() + 1);
  return next;
};

/**
 * The real repository's upsert: one subscription per order item, its trial and period from what
 * the gateway said (else the item's trial days, else one interval from now); a repeat only fills
 * in a gateway id still missing.
 */
function withUpsert(subscriptions: InMemorySubscriptionRepository): SubscriptionRepository {
  return {
    ...subscriptions,
    async upsertForItem({ order, item, facts, now }) {
      const existing = await subscriptions.findForItem(item.id);
      if (existing) {
        if (existing.gateway_subscription_id || !facts) return existing;
        return subscriptions.add({ ...existing, gateway_subscription_id: facts.subscription_id });
      }
      const interval = item.billing_interval ?? "monthly";
      const trialEnds = facts?.trial_ends_at
        ? new Date(facts.trial_ends_at)
        : item.trial_days
          ? new Date(now.getTime() + item.trial_days * 86_400_000)
          : null;
      return subscriptions.add({
        order_id: order.id,
        order_item_id: item.id,
        customer_id: order.customer_id,
        product_id: item.product_id,
        gateway: order.payment_gateway,
        gateway_subscription_id: facts?.subscription_id ?? null,
        status: trialEnds ? "trialing" : "active",
        billing_interval: interval,
        trial_ends_at: trialEnds,
        current_period_end: facts?.current_period_end
          ? new Date(facts.current_period_end)
          : (trialEnds ?? addInterval(now, interval)),
        cancelled_at: null,
        cancel_at_period_end: false,
      });
    },
  };
}

/**
 * A unit of work over in-memory repositories: every store of the transaction scope, each also
 * reachable directly to seed and inspect. A `run` whose work throws leaves every store as it was
 * before, as a rolled-back transaction does. `runs` counts the transactions begun.
 */
export function createInMemoryUnitOfWork() {
  const stores = {
    inbox: createInMemoryWebhookInboxReader(),
    orders: createInMemoryOrderStatusWriter(),
    payments: createInMemoryPaymentLedger(),
    fulfillments: createInMemoryFulfillmentRepository(),
    subscriptions: createInMemorySubscriptionRepository(),
    licenses: createInMemoryLicenseAdmin(),
    outbox: createInMemoryNotificationOutbox(),
    jobs: createRecordingJobScheduler(),
    events: createRecordingEventPublisher(),
    audit: createInMemoryAuditLogWriter(),
    alerts: createRecordingOpsAlerts(),
  };
  const scope: TransactionScope = {
    ...stores,
    subscriptions: withUpsert(stores.subscriptions),
    licenses: stores.licenses.writer,
  };
  let runs = 0;
  /**
   * The scheduler of one transaction: a follow-up is one (noted in `jobs.followUps()`) only in a
   * transaction a job opened, once per run, as in PostgreSQL; otherwise it is an ordinary job.
   */
  const jobsOf = (followUp?: FollowUp): JobScheduler => ({
    enqueue: (job) => stores.jobs.enqueue(job),
    enqueueFollowUp(job) {
      if (!followUp || followUp.taken) return stores.jobs.enqueue(job);
      followUp.taken = true;
      return stores.jobs.enqueueFollowUp(job);
    },
  });

  const uow: UnitOfWork = {
    async run(work, job) {
      runs += 1;
      const restores = Object.values(stores).map((store) => store.snapshot());
      try {
        return await work({ ...scope, jobs: jobsOf(job?.followUp) });
      } catch (error) {
        for (const restore of restores) restore();
        throw error;
      }
    },
  };

  return {
    ...uow,
    ...stores,
    /** The subscriptions as the scope sees them, `upsertForItem` included. */
    scopedSubscriptions: scope.subscriptions,
    get runs() {
      return runs;
    },
  };
}

export type InMemoryUnitOfWork = ReturnType<typeof createInMemoryUnitOfWork>;
