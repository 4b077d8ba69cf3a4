import { describe, expect, test } from "bun:test";
import { orderFulfillment } from "../../../application/fulfillment/order-fulfillment.ts";
import { makeAdminOrders } from "../../../application/payments/admin-orders.ts";
import { makeEndGatewaySubscription } from "../../../application/payments/end-gateway-subscription.ts";
import { makeProcessPaymentEvent } from "../../../application/payments/process-payment-event.ts";
import type { GatewayEvent } from "../../../domain/payments/gateway-event.ts";
import { encodeGatewayEvent } from "../../../domain/payments/gateway-event-codec.ts";
import { aPaidEvent, aRefundedEvent, aRenewedEvent } from "../../support/builders/gateway-events.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";
import { createMovableClock } from "../../support/fakes/movable-clock.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";
import { createWebhookSendingPaymentGateway } from "../../support/fakes/webhook-sending-payment-gateway.ts";
import { firstRun } from "../../support/jobs.ts";

const ADMIN = "4f6c2b1a-7d3e-4c5b-9a8f-1e2d3c4b5a69";

/** The payment job and the admin's order actions over one in-memory unit of work. */
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
  const admin = makeAdminOrders({
    orders: uow.orders.orderRepository(uow.payments),
    gateways,
    uow,
    clock: () => new Date(),
    log,
    fulfillment: orderFulfillment,
  });
  /** The gateway tells the event: stored in the inbox as the webhook route stores it, then processed. */
  const tell = async (event: GatewayEvent) => {
    const entry = uow.inbox.add({
      gateway: event.gateway,
      event_id: event.event_id,
      environment: "sandbox",
      payload: JSON.stringify(event),
      event: encodeGatewayEvent(event),
    });
    await process({ inbox_id: entry.id }, firstRun());
  };
  const end = makeEndGatewaySubscription({ subscriptions: uow.subscriptions, uow, gateways, clock, log });
  return { uow, gateways, tell, admin, end, events: uow.events };
}

/** Every secret-like word an event's data must never carry. */
const SECRET_WORDS = /secret|token|password|license_key|api_key|snapshot/i;
const keysOf = (value: unknown): string[] =>
  typeof value === "object" && value !== null
    ? Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)])
    : [];

describe("order.paid", () => {
  test("is published once when a payment pays the order and queues its delivery, however often it is told", async () => {
    const { uow, tell, events } = setUp();
    const { order, items } = uow.orders.add({}, [{}, { product_name: "Plugin" }]);
    const paid = aPaidEvent({ order_id: order.id, payment: { payment_id: "pi_1" } });
    await tell(paid);
    await tell({ ...paid, event_id: "evt_repeated" });
    const published = events.ofType("order.paid");
    expect(published).toHaveLength(1);
    expect(published[0]?.data).toMatchObject({
      order_id: order.id,
      customer_id: order.customer_id,
      status: "paid",
      total: order.total,
      currency: order.currency,
      items: items.map((item) => expect.objectContaining({ order_item_id: item.id, product_id: item.product_id })),
    });
    expect(keysOf(published[0]?.data).filter((key) => SECRET_WORDS.test(key))).toEqual([]);
  });

  test("waits while the order needs a person, and is published once when an admin releases it", async () => {
    const { uow, tell, admin, events } = setUp();
    const { order } = uow.orders.add();
    await tell(aPaidEvent({ order_id: order.id, amount: 100, pre_tax: 100, payment: { payment_id: "pi_short" } }));
    expect(uow.orders.get(order.id).status).toBe("flagged");
    expect(events.ofType("order.paid")).toEqual([]);
    expect(events.ofType("order.needs_attention")).toHaveLength(1);

    await admin.approve(order.id, ADMIN);
    expect(events.ofType("order.paid")).toMatchObject([{ data: { order_id: order.id, needs_attention: false } }]);

    // A further payment flags the delivered order again; approving it delivers nothing new.
    await tell(aPaidEvent({ order_id: order.id, payment: { payment_id: "pi_again" } }));
    await admin.approve(order.id, ADMIN);
    expect(events.ofType("order.paid")).toHaveLength(1);
  });
});

describe("order.refunded", () => {
  function aPaidOrder() {
    const t = setUp();
    const { order } = t.uow.orders.add({ status: "paid" });
    const payment = t.uow.payments.add({ order_id: order.id, payment_id: "pi_1", gateway: "gateway_b", amount: 4900 });
    return { ...t, order, payment };
  }

  test("is published once per refund the gateway reports, with the amount and the refund status", async () => {
    const { tell, events, order } = aPaidOrder();
    const partial = aRefundedEvent({ payment: { payment_id: "pi_1" }, amount: 1000, refund_id: "re_1" });
    await tell(partial);
    await tell({ ...partial, event_id: "evt_same_refund_again" });
    await tell(aRefundedEvent({ payment: { payment_id: "pi_1" }, amount: 3900, refund_id: "re_2" }));
    expect(events.ofType("order.refunded").map((event) => event.data)).toMatchObject([
      {
        order_id: order.id,
        status: "partially_refunded",
        refund: { refund_id: "re_1", amount: 1000, status: "partially_refunded", payment: { refunded_amount: 1000 } },
      },
      {
        order_id: order.id,
        status: "refunded",
        refund: { refund_id: "re_2", amount: 3900, status: "refunded", payment: { refunded_amount: 4900 } },
      },
    ]);
  });

  test("made by an admin is published once, not again when the gateway's event about it arrives", async () => {
    const { admin, tell, events, order } = aPaidOrder();
    await admin.refund(order.id, { amount: 1500 }, ADMIN);
    const [published] = events.ofType("order.refunded");
    expect(published?.data).toMatchObject({
      order_id: order.id,
      refund: { amount: 1500, status: "partially_refunded" },
    });
    const refundId = (published?.data.refund as { refund_id: string } | undefined)?.refund_id ?? null;
    await tell(aRefundedEvent({ payment: { payment_id: "pi_1" }, amount: 1500, refund_id: refundId }));
    expect(events.ofType("order.refunded")).toHaveLength(1);
  });

  test.each([
    ["before", true],
    ["after", false],
  ])(
    "made by an admin is published once when Stripe's running total counting it is applied %s the admin's record",
    async (_, totalFirst) => {
      const { admin, gateways, tell, events, order, uow, payment } = aPaidOrder();
      const runningTotal = aRefundedEvent({
        payment: { payment_id: "pi_1" },
        amount: 1500,
        cumulative: true,
        refund_id: null,
      });
      const atGateway = gateways.gateway_b.hold("refund");
      const refunding = admin.refund(order.id, { amount: 1500 }, ADMIN);
      await atGateway.started;
      if (totalFirst) await tell(runningTotal);
      atGateway.release();
      await refunding;
      if (!totalFirst) await tell(runningTotal);
      expect(uow.payments.get(payment.id).refunded_amount).toBe(1500);
      expect(events.ofType("order.refunded").map((event) => event.data.refund)).toMatchObject([
        { amount: 1500, status: "partially_refunded", payment: { refunded_amount: 1500 } },
      ]);
    },
  );

  test("two admin refunds at once, with Stripe's running total of both between them, tell each amount once", async () => {
    const { admin, gateways, tell, events, order } = aPaidOrder();
    const atGateway = gateways.gateway_b.hold("refund");
    const first = admin.refund(order.id, { amount: 1000 }, ADMIN);
    await atGateway.started;
    await admin.refund(order.id, { amount: 1500 }, ADMIN);
    await tell(aRefundedEvent({ payment: { payment_id: "pi_1" }, amount: 2500, cumulative: true, refund_id: null }));
    atGateway.release();
    await first;
    expect(events.ofType("order.refunded").map((event) => event.data.refund)).toMatchObject([
      { amount: 1500, payment: { refunded_amount: 1500 } },
      { amount: 1000, payment: { refunded_amount: 2500 } },
    ]);
  });

  test("a running total the ledger already holds publishes nothing", async () => {
    const { tell, events } = aPaidOrder();
    await tell(aRefundedEvent({ payment: { payment_id: "pi_1" }, amount: 2000, cumulative: true, refund_id: null }));
    await tell(aRefundedEvent({ payment: { payment_id: "pi_1" }, amount: 2000, cumulative: true, refund_id: null }));
    expect(events.ofType("order.refunded").map((event) => event.data.refund)).toMatchObject([{ amount: 2000 }]);
  });
});

describe("subscription events", () => {
  function aSubscribedOrder() {
    const t = setUp();
    const { order, items } = t.uow.orders.add({ status: "paid" }, [{}, {}]);
    const subscriptions = items.map((item) =>
      t.uow.subscriptions.add({
        order_id: order.id,
        order_item_id: item.id,
        customer_id: order.customer_id,
        gateway: "gateway_b",
        gateway_subscription_id: "sub_1",
      }),
    );
    t.gateways.gateway_b.addSubscription("sub_1");
    return { ...t, order, subscriptions };
  }

  test("subscription.renewed: once per subscription and paid period, with the payment", async () => {
    const { tell, events, subscriptions } = aSubscribedOrder();
    const renewal = aRenewedEvent({
      subscription_id: "sub_1",
      payment: { payment_id: "pi_renewal" },
      current_period_end: "2026-03-01T00:00:00.000Z",
    });
    await tell(renewal);
    await tell({ ...renewal, event_id: "evt_renewal_again" });
    expect(events.ofType("subscription.renewed").map((event) => event.data)).toEqual(
      subscriptions.map((subscription) =>
        expect.objectContaining({
          subscription_id: subscription.id,
          gateway_subscription_id: "sub_1",
          status: "active",
          current_period_end: "2026-03-01T00:00:00.000Z",
          payment: expect.objectContaining({ payment_id: "pi_renewal", kind: "renewal", amount: 4900 }),
        }),
      ),
    );
  });

  test("subscription.cancelled: once per subscription when the gateway ends it, not again when told twice", async () => {
    const { tell, events, subscriptions } = aSubscribedOrder();
    const cancelled: GatewayEvent = {
      gateway: "gateway_b",
      event_id: "evt_cancel",
      kind: "cancelled",
      subscription_id: "sub_1",
      order_id: null,
    };
    await tell(cancelled);
    await tell({ ...cancelled, event_id: "evt_cancel_again" });
    expect(events.ofType("subscription.cancelled").map((event) => event.data)).toEqual(
      subscriptions.map((subscription) =>
        expect.objectContaining({
          subscription_id: subscription.id,
          status: "cancelled",
          cancelled_at: "2026-01-15T09:30:00.000Z",
        }),
      ),
    );
  });

  test("subscription.cancelled: once when the shop ends it at the gateway, and not again on the gateway's event about it", async () => {
    const { tell, end, events, subscriptions } = aSubscribedOrder();
    const [first] = subscriptions;
    await end({ subscription_id: first?.id ?? "", reason: "payment refunded" });
    await end({ subscription_id: first?.id ?? "", reason: "payment refunded" });
    await tell({
      gateway: "gateway_b",
      event_id: "evt_deleted",
      kind: "cancelled",
      subscription_id: "sub_1",
      order_id: null,
    });
    expect(events.ofType("subscription.cancelled").map((event) => event.data.subscription_id)).toEqual(
      subscriptions.map((subscription) => subscription.id),
    );
  });

  test("nothing is published by a change that rolls back after publishing", async () => {
    const { uow, tell, events } = setUp();
    const { order } = uow.orders.add();
    const publishedBeforeTheFailure: string[] = [];
    const publish = uow.events.publish;
    uow.events.publish = async (...args) => {
      await publish(...args);
      publishedBeforeTheFailure.push(...events.all().map((event) => event.type));
      throw new Error("the connection was lost before the commit");
    };
    await expect(tell(aPaidEvent({ order_id: order.id }))).rejects.toThrow("the connection was lost");
    expect(publishedBeforeTheFailure).toEqual(["order.paid"]);
    expect(events.all()).toEqual([]);
  });
});
