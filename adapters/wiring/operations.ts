import { makeOpsWatch } from "../../application/alerts/ops-watch.ts";
import { makeExpireUnpaidOrders } from "../../application/checkout/expire-unpaid-orders.ts";
import type { FulfillmentRepository, SubscriptionRepository } from "../../application/fulfillment/ports.ts";
import { makeMinuteTick } from "../../application/maintenance/minute-tick.ts";
import { makeRedriveJob } from "../../application/maintenance/redrive-job.ts";
import type { NotificationOutboxReader } from "../../application/notifications/ports.ts";
import { makeSetSecret } from "../../application/secrets/set-secret.ts";
import { deleteDoneJobs } from "../jobs/job-cleanup.ts";
import { createJobWorker } from "../jobs/job-worker.ts";
import { createPostgresJobAdmin } from "../jobs/postgres-job-admin.ts";
import { pruneHistory } from "../postgres/history-retention.ts";
import { loadMigrations } from "../postgres/migrate.ts";
import { createPostgresOpsWatchSource } from "../postgres/ops-watch-source.ts";
import { JOB_TYPES, type MarketplaceJobHandlers } from "./job-kinds.ts";
import type { Platform } from "./platform.ts";
import { createReadinessProbe } from "./readiness.ts";

/** The job worker and its dead letters, the minute tick, secrets, and readiness. */
export function wireOperations(
  platform: Platform,
  work: {
    readonly jobs: MarketplaceJobHandlers;
    readonly subscriptions: SubscriptionRepository;
    readonly fulfillments: FulfillmentRepository;
    readonly outbox: NotificationOutboxReader;
    /** Floating license machines that stopped checking in give their seats back; how many. */
    readonly releaseIdleMachines: (now: Date) => Promise<number>;
  },
) {
  const { infra, config, logger, sql, changes, wake, mutex, uow, clock, secrets } = platform;
  const { jobs } = config;
  const watch = config.mail.opsEmail
    ? makeOpsWatch({ source: createPostgresOpsWatchSource(sql), uow, log: logger })
    : undefined;
  const worker = createJobWorker({
    sql,
    types: JOB_TYPES,
    handlers: work.jobs,
    wake: changes,
    logger,
    concurrency: jobs.concurrency,
    leaseMs: jobs.leaseMs,
    maxAttempts: jobs.maxAttempts,
    backoff: { baseMs: jobs.backoffBaseMs, maxMs: jobs.backoffMaxMs },
    pollIntervalMs: jobs.pollIntervalMs,
    ...(infra.random ? { random: infra.random } : {}),
    ...(watch ? { onDeadLettered: watch.alertDeadJobs } : {}),
  });
  const jobAdmin = createPostgresJobAdmin({ sql, wake, maxAttempts: jobs.maxAttempts });
  const tick = makeMinuteTick({
    mutex,
    uow,
    subscriptions: work.subscriptions,
    fulfillments: work.fulfillments,
    outbox: work.outbox,
    clock,
    log: logger,
    graceHours: config.subscriptionGraceHours,
    releaseIdleMachines: work.releaseIdleMachines,
    expireUnpaidOrders: makeExpireUnpaidOrders({
      uow,
      log: logger,
      minutes: config.checkoutExpiryMinutes,
      discountHoldMinutes: config.discountHoldMinutes,
    }),
    cleanupJobs: async () =>
      (await deleteDoneJobs(sql, { olderThanDays: 7 })) + (await pruneHistory(sql, { olderThanDays: 30 })),
    ...(watch
      ? { alertOps: async (now: Date) => (await watch.alertDeadJobs()) + (await watch.alertOverdueTasks(now)) }
      : {}),
  });
  return {
    worker,
    tick,
    useCases: {
      listJobs: jobAdmin.list,
      redriveJob: makeRedriveJob({ jobs: jobAdmin }),
      putSecret: makeSetSecret({ secrets }),
      listSecrets: secrets.list,
      instanceId: config.instanceId,
      checkReadiness: createReadinessProbe(sql, loadMigrations()),
    },
  };
}
