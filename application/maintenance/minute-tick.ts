import { fulfillmentActionJob } from "../fulfillment/jobs.ts";
import type { FulfillmentRepository, SubscriptionRepository } from "../fulfillment/ports.ts";
import { notifyJob } from "../notifications/jobs.ts";
import type { NotificationOutboxReader } from "../notifications/ports.ts";
import type { Clock, Log } from "../shared/clock-and-log.ts";
import type { Mutex } from "../shared/ports.ts";
import { noticeSubscription, TRIAL_OCCURRENCE } from "../shared/subscription-notice.ts";
import type { UnitOfWork } from "../shared/unit-of-work.ts";

export interface MinuteTickDeps {
  readonly mutex: Mutex;
  readonly uow: UnitOfWork;
  readonly subscriptions: SubscriptionRepository;
  readonly fulfillments: FulfillmentRepository;
  readonly outbox: NotificationOutboxReader;
  readonly clock: Clock;
  readonly log: Log;
  readonly graceHours: number;
  /** Expires orders unpaid for too long (their checkouts closed by jobs); returns how many. */
  readonly expireUnpaidOrders: (now: Date) => Promise<number>;
  /** Frees the seats of floating license machines that stopped checking in; returns how many. */
  readonly releaseIdleMachines?: (now: Date) => Promise<number>;
  /** Deletes finished jobs past their retention; returns how many. */
  readonly cleanupJobs: () => Promise<number>;
  /** Alerts operations to dead jobs and overdue tasks not alerted yet; returns how many. */
  readonly alertOps?: (now: Date) => Promise<number>;
}

const BATCH = 100;

/** Subscribers hear of a trial's end this long before it (Stripe's `trial_will_end` is sent as early). */
const TRIAL_ENDING_NOTICE_HOURS = 72;

/**
 * The periodic housekeeping, run by one instance at a time: suspends lapsed subscriptions
 * through their adapter, tells subscribers their trial ends in three days, expires orders left unpaid, refreshes active SaaS tenants' status, re-sends notifications whose job
 * was lost, frees floating license seats whose machines stopped checking in, prunes finished jobs and alerts operations to what is stuck. Every effect goes through a job, so the tick itself is short
 * and a crash mid-tick loses nothing.
 */
export function makeMinuteTick(deps: MinuteTickDeps) {
  async function suspendLapsed(now: Date) {
    const lapsed = await deps.subscriptions.lapsed(now, deps.graceHours, BATCH);
    for (const subscription of lapsed) {
      await deps.uow.run(async (scope) => {
        await scope.subscriptions.update(subscription.id, { status: "suspended" });
        const records = await scope.fulfillments.list({ order_id: subscription.order_id }, { limit: BATCH });
        for (const record of records.items.filter(
          (r) => r.order_item_id === subscription.order_item_id && r.status === "active",
        )) {
          await scope.jobs.enqueue(
            fulfillmentActionJob({
              fulfillment_id: record.id,
              action: "suspend",
              reason: "subscription lapsed",
              cause: "lapsed",
            }),
          );
        }
      });
    }
    return lapsed.length;
  }

  /** Tells each subscriber whose trial ends within three days, once per trial end, whichever gateway bills it. */
  async function noticeTrialsEnding(now: Date) {
    const ending = await deps.subscriptions.trialsEnding(now, TRIAL_ENDING_NOTICE_HOURS, BATCH);
    await deps.uow.run(async (scope) => {
      for (const subscription of ending) {
        if (!subscription.trial_ends_at) continue;
        await noticeSubscription(scope, "subscription.trial_ending", subscription, TRIAL_OCCURRENCE, {
          trial_ends_at: subscription.trial_ends_at.toISOString(),
        });
      }
    });
    return ending.length;
  }

  async function refreshTenants() {
    const active = await deps.fulfillments.list({ status: "active", driver: "multitenant_saas" }, { limit: BATCH });
    await deps.uow.run(async (scope) => {
      for (const record of active.items) {
        await scope.jobs.enqueue(
          fulfillmentActionJob({ fulfillment_id: record.id, action: "sync", reason: "minute tick", cause: "tick" }),
        );
      }
    });
    return active.items.length;
  }

  async function resendNotifications() {
    const stale = await deps.outbox.stale(60, BATCH);
    await deps.uow.run(async (scope) => {
      for (const message of stale) {
        await scope.jobs.enqueue(notifyJob({ outbox_id: message.id }));
      }
    });
    return stale.length;
  }

  return async function minuteTick(): Promise<{ ran: boolean }> {
    return deps.mutex.tryWithLock("minute-tick", async () => {
      const now = deps.clock();
      const suspended = await suspendLapsed(now);
      const trialsEnding = await noticeTrialsEnding(now);
      const expired = await deps.expireUnpaidOrders(now);
      const synced = await refreshTenants();
      const resent = await resendNotifications();
      const released = (await deps.releaseIdleMachines?.(now)) ?? 0;
      const pruned = await deps.cleanupJobs();
      const alerted = (await deps.alertOps?.(now)) ?? 0;
      deps.log.info(
        {
          suspended,
          trials_ending: trialsEnding,
          expired,
          synced,
          resent,
          machines_released: released,
          pruned,
          alerted,
          now: now.toISOString(),
        },
        "minute tick",
      );
    });
  };
}
