import { describe, expect, test } from "bun:test";
import { fulfillJob, fulfillmentActionJob } from "../../../application/fulfillment/jobs.ts";
import { orderFulfillment } from "../../../application/fulfillment/order-fulfillment.ts";
import { makeProcessPaymentEvent } from "../../../application/payments/process-payment-event.ts";
import {
  PermanentJobFailure,
  SubscriptionChangedMeanwhile,
  UpstreamUnreachable,
} from "../../../application/shared/errors.ts";
import type { GatewayEnvironment, GatewayEvent } from "../../../domain/payments/gateway-event.ts";
import { encodeGatewayEvent } from "../../../domain/payments/gateway-event-codec.ts";
import { aPaidEvent, aRefundedEvent, aRenewedEvent, ONE_OF_EACH_KIND } from "../../support/builders/gateway-events.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";
import { createMovableClock } from "../../support/fakes/movable-clock.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";
import { createWebhookSendingPaymentGateway } from "../../support/fakes/webhook-sending-payment-gateway.ts";
import { firstRun } from "../../support/jobs.ts";

function setUp() {
  const uow = createInMemoryUnitOfWork();
  const gateways = {
    gateway_a: createWebhookSendingPaymentGateway("gateway_a"),
    gateway_b: createWebhookSendingPaymentGateway("gateway_b"),
  };
  const { clock } = createMovableClock("2026-01-15T09:30:00.000Z");
  const log = createRecordingLog();
  const process = makeProcessPaymentEvent({
    inbox: uow.inbox,
    subscriptions: uow.subscriptions,
    gateways,
    uow,
    clock,
    log,
    fulfillment: orderFulfillment,
    // Every variant is for sale at 1000 unless a test says otherwise.
    prices: { price: async () => 1000 },
  });
  /** The event as the webhook left it in the inbox: raw body and normalized event. */
  const stored = (event: GatewayEvent, environment: GatewayEnvironment = "sandbox") =>
    uow.inbox.add({
      gateway: event.gateway,
      event_id: event.event_id,
      environment,
      payload: JSON.stringify(event),
      event: encodeGatewayEvent(event),
    });
  const run = (entry: { id: string }) => process({ inbox_id: entry.id }, firstRun());
  return { uow, gateways, log, stored, run };
}

describe("the payment job", () => {
  test("applies the event stored on arrival without normalizing the body again", async () => {
    const { uow, gateways, stored, run } = setUp();
    const { order } = uow.orders.add();
    const entry = stored(aPaidEvent({ order_id: order.id, payment: { payment_id: "pi_1" } }));
    await run(entry);
    expect(uow.orders.get(order.id).status).toBe("paid");
    expect(await uow.payments.forOrder(order.id)).toMatchObject([
      { payment_id: "pi_1", amount: 4900, kind: "initial" },
    ]);
    expect(uow.jobs.ofKind(fulfillJob.kind)).toHaveLength(1);
    expect((await uow.inbox.find(entry.id))?.processed_at).toBeInstanceOf(Date);
    expect(gateways.gateway_b.callsOf("normalizeWebhookPayload")).toEqual([]);
    expect(gateways.gateway_b.callsOf("resolvePayment")).toEqual([[{ payment_id: "pi_1" }]]);
  });

  test("hands the paid order's delivery to its own worker as the payment job's follow-up", async () => {
    const { uow, stored, run } = setUp();
    const { order } = uow.orders.add();
    await run(stored(aPaidEvent({ order_id: order.id })));
    const [record] = (await uow.fulfillments.list({ order_id: order.id }, { limit: 10 })).items;
    expect(uow.jobs.followUps()).toEqual([fulfillJob({ fulfillment_id: record?.id ?? "" }).dedupeKey]);
  });

  test("reads the stored event even when the raw body no longer normalizes", async () => {
    const { uow, stored, run } = setUp();
    const { order } = uow.orders.add();
    const entry = stored(aPaidEvent({ order_id: order.id }));
    uow.inbox.add({ ...entry, id: entry.id, payload: "not the event any more" });
    await run(entry);
    expect(uow.orders.get(order.id).status).toBe("paid");
  });

  test("the same entry twice is applied once", async () => {
    const { uow, gateways, stored, run } = setUp();
    const { order } = uow.orders.add();
    const entry = stored(aPaidEvent({ order_id: order.id }));
    await run(entry);
    const calls = gateways.gateway_b.calls.length;
    await run(entry);
    expect(await uow.payments.forOrder(order.id)).toHaveLength(1);
    expect((await uow.fulfillments.list({ order_id: order.id }, { limit: 10 })).items).toHaveLength(1);
    expect(uow.jobs.ofKind(fulfillJob.kind)).toHaveLength(1);
    expect(gateways.gateway_b.calls).toHaveLength(calls);
  });

  test("the same payment told by two events pays and delivers once", async () => {
    const { uow, stored, run } = setUp();
    const { order } = uow.orders.add();
    const first = aPaidEvent({ order_id: order.id });
    await run(stored(first));
    await run(stored({ ...first, event_id: "evt_other_name_same_payment" }));
    expect(await uow.payments.forOrder(order.id)).toHaveLength(1);
    expect(uow.jobs.ofKind(fulfillJob.kind)).toHaveLength(1);
    expect(uow.orders.get(order.id).needs_attention).toBe(false);
  });

  test("an inbox entry that does not exist fails the job for good", async () => {
    const { run, uow } = setUp();
    await expect(run({ id: crypto.randomUUID() })).rejects.toBeInstanceOf(PermanentJobFailure);
    expect(uow.jobs.all()).toEqual([]);
  });

  test("a stored event that cannot be read back fails the job for good and changes nothing", async () => {
    const { uow, gateways, run } = setUp();
    const { order } = uow.orders.add();
    const event = aPaidEvent({ order_id: order.id });
    const entry = uow.inbox.add({
      gateway: "gateway_b",
      payload: JSON.stringify(event),
      event: { format: 99, event } as never,
    });
    await expect(run(entry)).rejects.toBeInstanceOf(PermanentJobFailure);
    expect(uow.orders.get(order.id).status).toBe("pending_payment");
    expect((await uow.inbox.find(entry.id))?.processed_at).toBeNull();
    expect(gateways.gateway_b.calls).toEqual([]);
  });

  test("an entry naming no known gateway fails the job for good", async () => {
    const { uow, run } = setUp();
    const event = ONE_OF_EACH_KIND.cancelled;
    const entry = uow.inbox.add({ gateway: "gateway_z", payload: "{}", event: encodeGatewayEvent(event) });
    await expect(run(entry)).rejects.toBeInstanceOf(PermanentJobFailure);
  });

  test("a gateway error while resolving the payment is retried later: nothing is applied meanwhile", async () => {
    const { uow, gateways, stored, run } = setUp();
    const { order } = uow.orders.add();
    const entry = stored(aPaidEvent({ order_id: order.id }));
    gateways.gateway_b.fail("resolvePayment", new UpstreamUnreachable("gateway", "connection refused"));
    await expect(run(entry)).rejects.toBeInstanceOf(UpstreamUnreachable);
    expect(uow.orders.get(order.id).status).toBe("pending_payment");
    expect((await uow.inbox.find(entry.id))?.processed_at).toBeNull();
    gateways.gateway_b.recover("resolvePayment");
    await run(entry);
    expect(uow.orders.get(order.id).status).toBe("paid");
  });

  test("a payment for an order that does not exist fails the job for good", async () => {
    const { uow, stored, run } = setUp();
    const entry = stored(aPaidEvent({ order_id: crypto.randomUUID() }));
    await expect(run(entry)).rejects.toBeInstanceOf(PermanentJobFailure);
    expect((await uow.inbox.find(entry.id))?.processed_at).toBeNull();
  });

  test("a failure inside the transaction rolls everything back and leaves the entry to retry", async () => {
    const { uow, stored, run } = setUp();
    const { order } = uow.orders.add();
    const entry = stored(aPaidEvent({ order_id: order.id }));
    const enqueueFollowUp = uow.jobs.enqueueFollowUp;
    uow.jobs.enqueueFollowUp = async () => {
      throw new Error("queue unavailable");
    };
    await expect(run(entry)).rejects.toThrow("queue unavailable");
    uow.jobs.enqueueFollowUp = enqueueFollowUp;
    expect(uow.orders.get(order.id).status).toBe("pending_payment");
    expect(await uow.payments.forOrder(order.id)).toEqual([]);
    expect((await uow.fulfillments.list({ order_id: order.id }, { limit: 10 })).items).toEqual([]);
    expect((await uow.inbox.find(entry.id))?.processed_at).toBeNull();
    await run(entry);
    expect(uow.orders.get(order.id).status).toBe("paid");
  });

  test("a renewal that overtakes its first payment is retried until the subscription is known", async () => {
    const { uow, stored, run } = setUp();
    const entry = stored(aRenewedEvent({ subscription_id: "sub_later" }));
    await expect(run(entry)).rejects.toThrow("subscription sub_later is not known yet");
    expect((await uow.inbox.find(entry.id))?.processed_at).toBeNull();
  });

  test("a refund reaches the payment the event names and refunds the order", async () => {
    const { uow, stored, run } = setUp();
    const { order } = uow.orders.add({ status: "paid" });
    const payment = uow.payments.add({ order_id: order.id, payment_id: "pi_9" });
    await run(stored(aRefundedEvent({ payment: { payment_id: "pi_9" } })));
    expect(uow.payments.get(payment.id).refunded_amount).toBe(4900);
    expect(uow.orders.get(order.id).status).toBe("refunded");
  });

  test("a cancellation at the gateway cancels the subscription and its deliveries", async () => {
    const { uow, stored, run } = setUp();
    const subscription = uow.subscriptions.add({ gateway: "gateway_a", gateway_subscription_id: "sub_2" });
    const record = uow.fulfillments.add({ order_id: subscription.order_id, order_item_id: subscription.order_item_id });
    await run(stored(ONE_OF_EACH_KIND.cancelled));
    expect(uow.subscriptions.get(subscription.id)).toMatchObject({
      status: "cancelled",
      cancelled_at: new Date("2026-01-15T09:30:00.000Z"),
    });
    expect(uow.jobs.ofKind(fulfillmentActionJob.kind)).toEqual([
      {
        kind: fulfillmentActionJob.kind,
        payload: { fulfillment_id: record.id, action: "cancel", reason: "subscription cancelled", cause: "evt_c" },
        dedupeKey: `cancel:${record.id}:evt_c`,
      },
    ]);
  });

  test("a subscription update follows the gateway's subscription as it is now, not the event", async () => {
    const { uow, gateways, stored, run } = setUp();
    const subscription = uow.subscriptions.add({
      gateway: "gateway_a",
      gateway_subscription_id: "sub_2",
      current_period_end: new Date("2026-02-01T00:00:00.000Z"),
    });
    gateways.gateway_a.addSubscription("sub_2", {
      status: "active",
      cancel_at_period_end: true,
      current_period_end: "2026-03-01T00:00:00.000Z",
    });
    await run(stored(ONE_OF_EACH_KIND.subscription_updated));
    expect(uow.subscriptions.get(subscription.id)).toMatchObject({
      cancel_at_period_end: true,
      current_period_end: new Date("2026-03-01T00:00:00.000Z"),
    });
    expect(gateways.gateway_a.callsOf("getSubscription")).toEqual([["sub_2"]]);
  });

  test("a subscription written while the gateway answered is asked about again, not overwritten", async () => {
    const { uow, gateways, stored, run } = setUp();
    // The customer cancelled; the gateway's event about it arrives as the customer resumes.
    const subscription = uow.subscriptions.add({
      gateway: "gateway_a",
      gateway_subscription_id: "sub_2",
      cancel_at_period_end: true,
    });
    gateways.gateway_a.addSubscription("sub_2", { status: "active", cancel_at_period_end: true });
    const ask = gateways.gateway_a.getSubscription;
    gateways.gateway_a.getSubscription = async (id) => {
      const answer = await ask(id);
      // The resume lands between the gateway's answer and the job's transaction.
      gateways.gateway_a.addSubscription("sub_2", { status: "active", cancel_at_period_end: false });
      await uow.subscriptions.update(subscription.id, { cancel_at_period_end: false });
      gateways.gateway_a.getSubscription = ask;
      return answer;
    };
    const entry = stored(ONE_OF_EACH_KIND.subscription_updated);
    const first = await run(entry).catch((error: unknown) => error);
    expect(first).toBeInstanceOf(SubscriptionChangedMeanwhile);
    expect((first as SubscriptionChangedMeanwhile).transient).toBe(true);
    expect(uow.subscriptions.get(subscription.id).cancel_at_period_end).toBe(false);
    expect((await uow.inbox.find(entry.id))?.processed_at).toBeFalsy();
    // The job's retry reads the gateway as it is now, and acts on it.
    gateways.gateway_a.addSubscription("sub_2", {
      status: "active",
      cancel_at_period_end: false,
      current_period_end: "2026-03-01T00:00:00.000Z",
    });
    await run(entry);
    expect(uow.subscriptions.get(subscription.id)).toMatchObject({
      cancel_at_period_end: false,
      current_period_end: new Date("2026-03-01T00:00:00.000Z"),
    });
    expect((await uow.inbox.find(entry.id))?.processed_at).toBeTruthy();
    expect(gateways.gateway_a.callsOf("getSubscription")).toEqual([["sub_2"], ["sub_2"]]);
  });

  test("a period end never moves back, nor forward while the gateway no longer collects", async () => {
    const { uow, gateways, stored, run } = setUp();
    const end = new Date("2026-02-01T00:00:00.000Z");
    const subscription = uow.subscriptions.add({
      gateway: "gateway_a",
      gateway_subscription_id: "sub_2",
      current_period_end: end,
    });
    gateways.gateway_a.addSubscription("sub_2", { status: "active", current_period_end: "2026-01-20T00:00:00.000Z" });
    await run(stored(ONE_OF_EACH_KIND.subscription_updated));
    gateways.gateway_a.addSubscription("sub_2", { status: "past_due", current_period_end: "2026-04-01T00:00:00.000Z" });
    await run(stored({ ...ONE_OF_EACH_KIND.subscription_updated, event_id: "evt_u2" }));
    expect(uow.subscriptions.get(subscription.id).current_period_end).toEqual(end);
  });

  test("a failed payment marks the subscription past due", async () => {
    const { uow, log, stored, run } = setUp();
    const subscription = uow.subscriptions.add({ gateway: "gateway_b", gateway_subscription_id: "sub_3" });
    await run(stored(ONE_OF_EACH_KIND.payment_failed));
    expect(uow.subscriptions.get(subscription.id).status).toBe("past_due");
    expect(log.lines.find((line) => line.message === "payment failed")?.fields).toMatchObject({
      reason: "card_declined: ünïcode ✓",
    });
  });
});
