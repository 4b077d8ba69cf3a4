import { describe, expect, test } from "bun:test";
import { makeExpireUnpaidOrders } from "../../../application/checkout/expire-unpaid-orders.ts";
import { expireCheckoutJob } from "../../../application/checkout/jobs.ts";
import { fulfillmentActionJob } from "../../../application/fulfillment/jobs.ts";
import { makeMinuteTick } from "../../../application/maintenance/minute-tick.ts";
import { notifyJob } from "../../../application/notifications/jobs.ts";
import { createInMemoryMutex } from "../../support/fakes/in-memory-mutex.ts";
import { createInMemoryNotificationOutbox } from "../../support/fakes/in-memory-notification-outbox.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";
import { createMovableClock } from "../../support/fakes/movable-clock.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";

const GRACE_HOURS = 72;
const EXPIRY_MINUTES = 1440;
const PERIOD_END = new Date("2026-01-15T00:00:00.000Z");

function setup() {
  const time = createMovableClock(PERIOD_END);
  const uow = createInMemoryUnitOfWork();
  // The tick only reads the outbox; this one ages its messages on the test's clock.
  const outbox = createInMemoryNotificationOutbox(time.clock);
  const { fulfillments, subscriptions, jobs } = uow;
  const mutex = createInMemoryMutex();
  const log = createRecordingLog();
  let cleanups = 0;
  const releasedAt: Date[] = [];
  const tick = makeMinuteTick({
    fulfillments,
    subscriptions,
    outbox,
    mutex,
    uow,
    clock: time.clock,
    log,
    graceHours: GRACE_HOURS,
    expireUnpaidOrders: makeExpireUnpaidOrders({ uow, log, minutes: EXPIRY_MINUTES }),
    cleanupJobs: async () => {
      cleanups++;
      return 2;
    },
    releaseIdleMachines: async (now) => {
      releasedAt.push(now);
      return 3;
    },
  });
  const actions = () =>
    jobs.ofKind(fulfillmentActionJob.kind).map((job) => [job.payload.action, job.payload.fulfillment_id]);
  return {
    releasedAt,
    uow,
    fulfillments,
    subscriptions,
    outbox,
    jobs,
    time,
    mutex,
    log,
    tick,
    actions,
    cleanups: () => cleanups,
  };
}

/** A subscription whose period ended at PERIOD_END and the active delivery of its item. */
function aLapsingSubscription(t: ReturnType<typeof setup>) {
  const subscription = t.subscriptions.add({ current_period_end: PERIOD_END });
  const record = t.fulfillments.add({
    driver: "license_download",
    status: "active",
    order_id: subscription.order_id,
    order_item_id: subscription.order_item_id,
  });
  return { subscription, record };
}

describe("the minute tick", () => {
  test("within the grace period a lapsed subscription is left alone", async () => {
    const t = setup();
    const { subscription } = aLapsingSubscription(t);
    t.time.advance(t.time.hours(GRACE_HOURS) - 1);

    await t.tick();

    expect(t.subscriptions.get(subscription.id).status).toBe("active");
    expect(t.actions()).toEqual([]);
  });

  test("after the grace period the subscription is suspended and its active delivery gets a suspend job", async () => {
    const t = setup();
    const { subscription, record } = aLapsingSubscription(t);
    const sibling = t.fulfillments.add({
      driver: "license_download",
      status: "active",
      order_id: subscription.order_id,
    });
    const failed = t.fulfillments.add({
      driver: "license_download",
      status: "failed",
      order_id: subscription.order_id,
      order_item_id: subscription.order_item_id,
    });
    t.time.advance(t.time.hours(GRACE_HOURS) + 60_000);

    await t.tick();

    expect(t.subscriptions.get(subscription.id).status).toBe("suspended");
    expect(t.actions()).toEqual([["suspend", record.id]]);
    expect(t.actions().map(([, id]) => id)).not.toContain(sibling.id);
    expect(t.actions().map(([, id]) => id)).not.toContain(failed.id);
  });

  test("a suspended subscription is not suspended again on the next tick", async () => {
    const t = setup();
    aLapsingSubscription(t);
    t.time.advance(t.time.hours(GRACE_HOURS + 1));
    await t.tick();
    t.time.advance(60_000);

    await t.tick();

    expect(t.actions()).toHaveLength(1);
    expect(t.log.lines.at(-1)?.fields).toMatchObject({ suspended: 0 });
  });

  test("active SaaS tenants are refreshed; other drivers and other states are not", async () => {
    const t = setup();
    const tenant = t.fulfillments.add({ driver: "multitenant_saas", status: "active" });
    t.fulfillments.add({ driver: "multitenant_saas", status: "manual_pending" });
    t.fulfillments.add({ driver: "license_download", status: "active" });

    await t.tick();

    expect(t.actions()).toEqual([["sync", tenant.id]]);
  });

  test("a notification still undelivered after a minute is sent again, once however many ticks see it", async () => {
    const t = setup();
    const stale = await t.outbox.add("fulfillment.ready", { fulfillment_id: "f-1" });
    const delivered = await t.outbox.add("fulfillment.ready", { fulfillment_id: "f-2" });
    await t.outbox.markDispatched(delivered);
    t.time.advance(61_000);
    const fresh = await t.outbox.add("fulfillment.failed", { fulfillment_id: "f-3" });

    await t.tick();
    t.time.advance(1_000);
    await t.tick();

    expect(t.jobs.ofKind(notifyJob.kind).map((job) => job.payload.outbox_id)).toEqual([stale]);
    expect(t.jobs.ofKind(notifyJob.kind).map((job) => job.payload.outbox_id)).not.toContain(fresh);
  });

  test("prunes finished jobs, frees idle floating seats at its time, and reports what it did", async () => {
    const t = setup();
    aLapsingSubscription(t);
    t.time.advance(t.time.hours(GRACE_HOURS + 1));

    expect(await t.tick()).toEqual({ ran: true });

    expect(t.cleanups()).toBe(1);
    expect(t.releasedAt).toEqual([t.time.now()]);
    expect(t.log.lines).toEqual([
      expect.objectContaining({
        message: "minute tick",
        fields: {
          suspended: 1,
          expired: 0,
          synced: 0,
          trials_ending: 0,
          resent: 0,
          machines_released: 3,
          pruned: 2,
          alerted: 0,
          now: t.time.now().toISOString(),
        },
      }),
    ]);
  });

  test("with alerts on, operations are alerted at the tick's time, and the count reported", async () => {
    const time = createMovableClock(PERIOD_END);
    const uow = createInMemoryUnitOfWork();
    const log = createRecordingLog();
    const seen: Date[] = [];
    const tick = makeMinuteTick({
      fulfillments: uow.fulfillments,
      subscriptions: uow.subscriptions,
      outbox: createInMemoryNotificationOutbox(time.clock),
      mutex: createInMemoryMutex(),
      uow,
      clock: time.clock,
      log,
      graceHours: GRACE_HOURS,
      expireUnpaidOrders: async () => 0,
      cleanupJobs: async () => 0,
      alertOps: async (now) => {
        seen.push(now);
        return 3;
      },
    });
    await tick();
    expect(seen).toEqual([PERIOD_END]);
    expect(log.lines[0]?.fields).toMatchObject({ alerted: 3 });
  });

  test("while another instance holds the tick, this one does nothing", async () => {
    const t = setup();
    aLapsingSubscription(t);
    t.time.advance(t.time.hours(GRACE_HOURS + 1));
    const release = t.mutex.hold("minute-tick");

    expect(await t.tick()).toEqual({ ran: false });
    expect(t.jobs.all()).toEqual([]);
    expect(t.cleanups()).toBe(0);

    release();
    expect(await t.tick()).toEqual({ ran: true });
    expect(t.actions()).toHaveLength(1);
  });

  test("two ticks at once: one runs, the other skips", async () => {
    const t = setup();

    const results = await Promise.all([t.tick(), t.tick()]);

    expect(results.map((r) => r.ran).sort()).toEqual([false, true]);
    expect(t.cleanups()).toBe(1);
  });
});

describe("the minute tick expires unpaid orders", () => {
  const minutes = (count: number) => count * 60_000;

  test("an order unpaid for CHECKOUT_EXPIRY_MINUTES becomes expired and gets a job closing its checkout", async () => {
    const t = setup();
    const placed = t.time.now();
    const { order } = t.uow.orders.add({ created_at: placed, checkout_session_id: "cs_1" });
    const failed = t.uow.orders.add({ created_at: placed, status: "checkout_failed" }).order;
    const paid = t.uow.orders.add({ created_at: placed, status: "paid" }).order;

    t.time.advance(minutes(EXPIRY_MINUTES) - 1);
    await t.tick();
    expect((await t.uow.orders.find(order.id))?.order.status).toBe("pending_payment");
    expect(t.jobs.ofKind(expireCheckoutJob.kind)).toEqual([]);

    t.time.advance(2);
    await t.tick();
    expect((await t.uow.orders.find(order.id))?.order.status).toBe("expired");
    expect((await t.uow.orders.find(failed.id))?.order.status).toBe("expired");
    expect((await t.uow.orders.find(paid.id))?.order.status).toBe("paid");
    expect(t.jobs.ofKind(expireCheckoutJob.kind).map((job) => job.payload.order_id)).toEqual([order.id, failed.id]);
    expect(t.log.lines.at(-1)?.fields).toMatchObject({ expired: 2 });

    await t.tick();
    expect(t.jobs.ofKind(expireCheckoutJob.kind)).toHaveLength(2);
  });

  test("more unpaid orders than one batch all expire in one tick", async () => {
    const t = setup();
    for (let i = 0; i < 250; i++) t.uow.orders.add({ created_at: t.time.now() });
    t.time.advance(minutes(EXPIRY_MINUTES + 1));
    await t.tick();
    expect(t.jobs.ofKind(expireCheckoutJob.kind)).toHaveLength(250);
    expect(t.log.lines.at(-1)?.fields).toMatchObject({ expired: 250 });
  });
});
