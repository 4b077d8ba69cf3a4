import { describe, expect, test } from "bun:test";
import { fulfillJob, fulfillmentActionJob } from "../../../application/fulfillment/jobs.ts";
import { orderFulfillment } from "../../../application/fulfillment/order-fulfillment.ts";
import type { ResolvedPayment } from "../../../application/payments/ports.ts";
import { type EventContext, makePaymentReceivers } from "../../../application/payments/receive-payment.ts";
import { PermanentJobFailure } from "../../../application/shared/errors.ts";
import type { Order } from "../../../domain/orders/order.ts";
import { aPaidEvent, aRenewedEvent } from "../../support/builders/gateway-events.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";
import { createMovableClock } from "../../support/fakes/movable-clock.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";

const resolved = (payment_id: string): ResolvedPayment => ({
  payment_id,
  payment_intent_id: payment_id,
  charge_id: null,
  invoice_id: null,
});

function setUp() {
  const uow = createInMemoryUnitOfWork();
  const log = createRecordingLog();
  const { clock } = createMovableClock("2026-01-15T09:30:00.000Z");
  const receivers = makePaymentReceivers({ clock, log, fulfillment: orderFulfillment });
  const context = (payment_id: string, environment: EventContext["environment"] = "sandbox"): EventContext => ({
    environment,
    payment: resolved(payment_id),
  });
  const paid = (event: Parameters<typeof receivers.paid>[0], ctx = context(event.payment.payment_id ?? "pi")) =>
    uow.run((scope) => receivers.paid(event, ctx, scope));
  const renewed = (event: Parameters<typeof receivers.renewed>[0]) =>
    uow.run((scope) => receivers.renewed(event, context(event.payment.payment_id ?? "pi"), scope));
  const deliveries = async (order: Order) => (await uow.fulfillments.list({ order_id: order.id }, { limit: 10 })).items;
  return { uow, log, paid, renewed, context, deliveries };
}

describe("a first payment", () => {
  test("that matches pays the order and queues one delivery per item", async () => {
    const { uow, paid, deliveries } = setUp();
    const { order, items } = uow.orders.add({}, [{}, { product_name: "Plugin" }]);
    await paid(aPaidEvent({ order_id: order.id, payment: { payment_id: "pi_1" } }));
    expect(uow.orders.get(order.id).status).toBe("paid");
    expect((await deliveries(order)).map((record) => record.order_item_id).sort()).toEqual(
      items.map((item) => item.id).sort(),
    );
    expect(uow.jobs.ofKind(fulfillJob.kind)).toHaveLength(2);
    expect(await uow.payments.forOrder(order.id)).toMatchObject([
      { payment_id: "pi_1", payment_intent_id: "pi_1", kind: "initial", amount: 4900, tax: 0, currency: "EUR" },
    ]);
  });

  test("told twice changes nothing the second time", async () => {
    const { uow, paid, deliveries } = setUp();
    const { order } = uow.orders.add();
    const event = aPaidEvent({ order_id: order.id });
    await paid(event);
    await paid({ ...event, event_id: "evt_again" });
    expect(await uow.payments.forOrder(order.id)).toHaveLength(1);
    expect(await deliveries(order)).toHaveLength(1);
    expect(uow.orders.get(order.id).needs_attention).toBe(false);
  });

  test("pays an order whose checkout had failed", async () => {
    const { uow, paid } = setUp();
    const { order } = uow.orders.add({ status: "checkout_failed" });
    await paid(aPaidEvent({ order_id: order.id }));
    expect(uow.orders.get(order.id).status).toBe("paid");
  });

  test.each([
    ["through another gateway", { gateway: "gateway_a" as const }, "sandbox" as const, /paid through gateway_a/],
    ["signed with the other environment's secret", {}, "live" as const, /signed with the live webhook secret/],
    ["in live mode for a sandbox order", { livemode: true }, null, /the event is live mode/],
    ["of another amount", { pre_tax: 4000, amount: 4000 }, "sandbox" as const, /paid 4000 EUR .* expected 4900 EUR/],
    ["in another currency", { currency: "USD" }, "sandbox" as const, /expected 4900 EUR/],
  ])("%s is recorded and flagged, and nothing is delivered", async (_, overrides, environment, reason) => {
    const { uow, paid, context, deliveries } = setUp();
    const { order } = uow.orders.add();
    await paid(
      aPaidEvent({ order_id: order.id, ...overrides, payment: { payment_id: "pi_x" } }),
      context("pi_x", environment),
    );
    expect(uow.orders.get(order.id)).toMatchObject({ status: "flagged", needs_attention: true });
    expect(uow.orders.get(order.id).attention_reason).toMatch(reason);
    expect(await uow.payments.forOrder(order.id)).toHaveLength(1);
    expect(await deliveries(order)).toEqual([]);
  });

  test("a tax-exclusive order is compared before tax, a tax-inclusive one with the total", async () => {
    const { uow, paid } = setUp();
    const exclusive = uow.orders.add({ tax_behavior: "exclusive", due_today: 4900 }).order;
    const inclusive = uow.orders.add({ tax_behavior: "inclusive", due_today: 5831 }).order;
    const taxed = { amount: 5831, tax: 931, pre_tax: 4900 };
    await paid(aPaidEvent({ order_id: exclusive.id, ...taxed }));
    await paid(aPaidEvent({ order_id: inclusive.id, ...taxed }));
    expect(uow.orders.get(exclusive.id).status).toBe("paid");
    expect(uow.orders.get(inclusive.id).status).toBe("paid");
  });

  test("a second distinct payment is recorded and put before a person, never delivered again", async () => {
    const { uow, paid, deliveries } = setUp();
    const { order } = uow.orders.add();
    await paid(aPaidEvent({ order_id: order.id, payment: { payment_id: "pi_1" } }));
    await paid(aPaidEvent({ order_id: order.id, payment: { payment_id: "pi_2" } }));
    expect(await uow.payments.forOrder(order.id)).toHaveLength(2);
    expect(uow.orders.get(order.id)).toMatchObject({ status: "paid", needs_attention: true });
    expect(uow.orders.get(order.id).attention_reason).toContain("a further payment pi_2");
    expect(await deliveries(order)).toHaveLength(1);
  });

  test("a payment for an expired order is recorded and flagged for an admin, and nothing is delivered", async () => {
    const { uow, paid, deliveries } = setUp();
    const { order } = uow.orders.add({ status: "expired" });
    await paid(aPaidEvent({ order_id: order.id, payment: { payment_id: "pi_late" } }));
    expect(uow.orders.get(order.id)).toMatchObject({ status: "flagged", needs_attention: true });
    expect(uow.orders.get(order.id).attention_reason).toBe(
      "paid 4900 EUR after the order had expired unpaid; nothing was delivered",
    );
    expect(await uow.payments.forOrder(order.id)).toMatchObject([{ payment_id: "pi_late", amount: 4900 }]);
    expect(await deliveries(order)).toEqual([]);
    expect(uow.alerts.all()).toMatchObject([{ kind: "order_needs_attention", target_id: order.id }]);
  });

  test("an order waiting for attention is paid but not delivered yet", async () => {
    const { uow, paid, deliveries } = setUp();
    const { order } = uow.orders.add({ needs_attention: true, attention_reason: "fraud check" });
    await paid(aPaidEvent({ order_id: order.id }));
    expect(uow.orders.get(order.id).status).toBe("paid");
    expect(await deliveries(order)).toEqual([]);
  });

  test("records the subscription of a recurring item with what the gateway said", async () => {
    const { uow, paid } = setUp();
    const { order, items } = uow.orders.add({}, [{ billing_interval: "monthly", payment_type: "subscription" }, {}]);
    const facts = { subscription_id: "sub_1", trial_ends_at: null, current_period_end: "2026-02-15T09:30:00.000Z" };
    await paid(aPaidEvent({ order_id: order.id, subscription: facts }));
    expect(await uow.scopedSubscriptions.findByGatewayId("gateway_b", "sub_1")).toMatchObject([
      {
        order_item_id: items[0]?.id,
        status: "active",
        billing_interval: "monthly",
        current_period_end: new Date("2026-02-15T09:30:00.000Z"),
      },
    ]);
    expect(await uow.scopedSubscriptions.findForItem(items[1]?.id ?? "")).toBeUndefined();
  });

  test("for an order that does not exist fails the job for good and records nothing", async () => {
    const { uow, paid } = setUp();
    const orderId = crypto.randomUUID();
    await expect(paid(aPaidEvent({ order_id: orderId }))).rejects.toBeInstanceOf(PermanentJobFailure);
    expect(await uow.payments.forOrder(orderId)).toEqual([]);
  });
});

describe("a renewal", () => {
  async function aSubscribedOrder(uow: ReturnType<typeof setUp>["uow"], status: "active" | "cancelled" = "active") {
    const { order, items } = uow.orders.add({ status: "paid" });
    const record = uow.fulfillments.add({ order_id: order.id, order_item_id: items[0]?.id, status: "active" });
    const subscription = uow.subscriptions.add({
      order_id: order.id,
      order_item_id: items[0]?.id,
      gateway: "gateway_b",
      gateway_subscription_id: "sub_1",
      status,
    });
    return { order, record, subscription };
  }

  test("is recorded, extends the period and reaches the delivery", async () => {
    const { uow, renewed } = setUp();
    const { order, record, subscription } = await aSubscribedOrder(uow);
    await uow.subscriptions.update(subscription.id, { status: "past_due" });
    const event = aRenewedEvent({ subscription_id: "sub_1", current_period_end: "2026-03-01T00:00:00.000Z" });
    await renewed(event);
    expect(await uow.payments.forOrder(order.id)).toMatchObject([{ kind: "renewal", amount: 4900 }]);
    expect(uow.subscriptions.get(subscription.id)).toMatchObject({
      status: "active",
      current_period_end: new Date("2026-03-01T00:00:00.000Z"),
    });
    expect(uow.jobs.ofKind(fulfillmentActionJob.kind)).toEqual([
      {
        kind: fulfillmentActionJob.kind,
        payload: { fulfillment_id: record.id, action: "renew", reason: "subscription renewed", cause: event.event_id },
        dedupeKey: `renew:${record.id}:${event.event_id}`,
      },
    ]);
  });

  test("told twice is recorded once and renews once", async () => {
    const { uow, renewed } = setUp();
    const { order } = await aSubscribedOrder(uow);
    const event = aRenewedEvent({ subscription_id: "sub_1" });
    await renewed(event);
    await renewed({ ...event, event_id: "evt_again" });
    expect(await uow.payments.forOrder(order.id)).toHaveLength(1);
    expect(uow.jobs.ofKind(fulfillmentActionJob.kind)).toHaveLength(1);
  });

  test("of a cancelled subscription is recorded but renews no delivery", async () => {
    const { uow, renewed } = setUp();
    const { order } = await aSubscribedOrder(uow, "cancelled");
    await renewed(aRenewedEvent({ subscription_id: "sub_1" }));
    expect(await uow.payments.forOrder(order.id)).toHaveLength(1);
    expect(uow.jobs.ofKind(fulfillmentActionJob.kind)).toEqual([]);
  });

  test("of a subscription not known yet is retried, recording nothing meanwhile", async () => {
    const { uow, renewed } = setUp();
    await expect(renewed(aRenewedEvent({ subscription_id: "sub_unknown" }))).rejects.toThrow("not known yet");
    expect(uow.jobs.all()).toEqual([]);
  });
});
