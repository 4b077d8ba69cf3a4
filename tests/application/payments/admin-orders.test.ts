import { describe, expect, test } from "bun:test";
import { fulfillJob, fulfillmentActionJob } from "../../../application/fulfillment/jobs.ts";
import { orderFulfillment } from "../../../application/fulfillment/order-fulfillment.ts";
import { makeAdminOrders } from "../../../application/payments/admin-orders.ts";
import { settleRefundJob } from "../../../application/payments/jobs.ts";
import { makeRefundAndDisputeReceivers } from "../../../application/payments/refunds-and-disputes.ts";
import { UpstreamUnreachable } from "../../../application/shared/errors.ts";
import { OrderNotFound } from "../../../domain/orders/errors.ts";
import type { Order } from "../../../domain/orders/order.ts";
import {
  NothingToApprove,
  NothingToRefund,
  PaymentNotOfOrder,
  RefundExceedsPayment,
  RefundFailed,
} from "../../../domain/payments/errors.ts";
import { aRefundedEvent } from "../../support/builders/gateway-events.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";
import { createWebhookSendingPaymentGateway } from "../../support/fakes/webhook-sending-payment-gateway.ts";

const ADMIN = "0b9a3c1e-5d4f-4a6b-8c7d-9e0f1a2b3c4d";

/** The admin use cases as the signed-in admin `ADMIN` calls them. */
function setUp(overrides: Partial<Order> = { status: "paid" }) {
  const uow = createInMemoryUnitOfWork();
  const gateways = {
    gateway_a: createWebhookSendingPaymentGateway("gateway_a"),
    gateway_b: createWebhookSendingPaymentGateway("gateway_b"),
  };
  const log = createRecordingLog();
  const orders = makeAdminOrders({
    orders: uow.orders.orderRepository(uow.payments),
    gateways,
    uow,
    clock: () => new Date(),
    log,
    fulfillment: orderFulfillment,
  });
  const admin = {
    ...orders,
    refund: (orderId: string, request: { payment_id?: string; amount?: number }) =>
      orders.refund(orderId, request, ADMIN),
    approve: (orderId: string) => orders.approve(orderId, ADMIN),
  };
  const { order } = uow.orders.add(overrides);
  const payment = uow.payments.add({ order_id: order.id, gateway: "gateway_b", payment_id: "pi_1", amount: 4900 });
  const moneyBack = makeRefundAndDisputeReceivers({ log: createRecordingLog(), fulfillment: orderFulfillment });
  const context = {
    environment: "sandbox" as const,
    payment: { payment_id: "pi_1", payment_intent_id: null, charge_id: null, invoice_id: null },
  };
  /** The payment job applying the gateway's refund event about `pi_1`. */
  const gatewayTells = (event: Partial<Parameters<typeof aRefundedEvent>[0]>) =>
    uow.run((scope) =>
      moneyBack.refunded(aRefundedEvent({ payment: { payment_id: "pi_1" }, ...event }), context, scope),
    );
  /** Stripe's `charge.refunded`: everything refunded on the charge so far, naming no refund. */
  const runningTotal = (amount: number) => gatewayTells({ amount, cumulative: true, refund_id: null });
  return { uow, gateways, log, admin, order, payment, gatewayTells, runningTotal };
}

describe("an admin refund", () => {
  test("of the whole payment goes through its gateway and refunds the order at once", async () => {
    const { uow, gateways, admin, order, payment } = setUp();
    const details = await admin.refund(order.id, {});
    expect(gateways.gateway_b.refunds).toEqual([{ payment_id: "pi_1", amount: null }]);
    expect(uow.payments.get(payment.id).refunded_amount).toBe(4900);
    expect(details.order.status).toBe("refunded");
    expect(details.refunds).toMatchObject([{ gateway_refund_id: "re_gateway_b_1", amount: 4900 }]);
  });

  test("of part of a payment asks the gateway for that amount and partly refunds the order", async () => {
    const { gateways, admin, order } = setUp();
    const details = await admin.refund(order.id, { amount: 1500 });
    expect(gateways.gateway_b.refunds).toEqual([{ payment_id: "pi_1", amount: 1500 }]);
    expect(details.order.status).toBe("partially_refunded");
    expect(details.payments[0]?.refunded_amount).toBe(1500);
  });

  test("takes the latest payment with something left unless told which", async () => {
    const { uow, gateways, admin, order } = setUp();
    uow.payments.add({ order_id: order.id, payment_id: "pi_2", amount: 900, refunded_amount: 900 });
    await admin.refund(order.id, { amount: 100 });
    expect(gateways.gateway_b.refunds).toEqual([{ payment_id: "pi_1", amount: 100 }]);
    const second = uow.payments.add({ order_id: order.id, payment_id: "pi_3", amount: 700 });
    await admin.refund(order.id, { payment_id: "pi_3" });
    expect(gateways.gateway_b.refunds.at(-1)).toEqual({ payment_id: "pi_3", amount: null });
    expect(uow.payments.get(second.id).refunded_amount).toBe(700);
  });

  test("is applied once even when the gateway's event about it arrives afterwards", async () => {
    const { uow, admin, order, payment, gatewayTells } = setUp();
    await admin.refund(order.id, { amount: 1500 });
    const [made] = uow.payments.refunds();
    await gatewayTells({ refund_id: made?.gateway_refund_id, amount: 1500 });
    expect(uow.payments.get(payment.id).refunded_amount).toBe(1500);
    expect(uow.payments.refunds()).toHaveLength(1);
  });

  test("is applied once when the gateway's running total counting it is applied before the admin's record", async () => {
    const { uow, gateways, admin, order, payment, runningTotal } = setUp();
    uow.fulfillments.add({ order_id: order.id, status: "active" });
    const atGateway = gateways.gateway_b.hold("refund");
    const refunding = admin.refund(order.id, { amount: 2450 });
    await atGateway.started;
    await runningTotal(2450);
    atGateway.release();
    const details = await refunding;
    expect(uow.payments.get(payment.id).refunded_amount).toBe(2450);
    expect(details.refunds).toMatchObject([{ gateway_refund_id: "re_gateway_b_1", amount: 2450 }]);
    expect(details.order.status).toBe("partially_refunded");
    expect(uow.jobs.ofKind(fulfillmentActionJob.kind)).toEqual([]);
  });

  test("and a running total the admin's record already holds changes nothing", async () => {
    const { uow, admin, order, payment, runningTotal } = setUp();
    await admin.refund(order.id, { amount: 2450 });
    await runningTotal(2450);
    expect(uow.payments.get(payment.id).refunded_amount).toBe(2450);
    expect(uow.orders.get(order.id).status).toBe("partially_refunded");
  });

  test("two at once both count: each has its own refund id at the gateway", async () => {
    const { uow, gateways, admin, order, payment } = setUp();
    const atGateway = gateways.gateway_b.hold("refund");
    const first = admin.refund(order.id, { amount: 1000 });
    await atGateway.started;
    await admin.refund(order.id, { amount: 1500 });
    atGateway.release();
    await first;
    expect(uow.payments.get(payment.id).refunded_amount).toBe(2500);
    expect(uow.payments.refunds().map((refund) => refund.amount)).toEqual([1500, 1000]);
  });

  test("two at once both count once when the running total of both is applied between their records", async () => {
    const { uow, gateways, admin, order, payment, runningTotal } = setUp();
    const atGateway = gateways.gateway_b.hold("refund");
    const first = admin.refund(order.id, { amount: 1000 });
    await atGateway.started;
    await admin.refund(order.id, { amount: 1500 });
    await runningTotal(2500);
    atGateway.release();
    await first;
    expect(uow.payments.get(payment.id).refunded_amount).toBe(2500);
    expect(uow.orders.get(order.id).status).toBe("partially_refunded");
  });

  test("after a refund made elsewhere counts both at once, before the running total of both arrives", async () => {
    const { uow, admin, order, payment, runningTotal } = setUp();
    await runningTotal(1000);
    await admin.refund(order.id, { amount: 1500 });
    expect(uow.payments.get(payment.id).refunded_amount).toBe(2500);
    await runningTotal(2500);
    expect(uow.payments.get(payment.id).refunded_amount).toBe(2500);
  });

  test.each([
    ["more than is left", { amount: 4901 }],
    ["nothing", { amount: 0 }],
    ["a fraction of a cent", { amount: 10.5 }],
  ])("of %s is refused before the gateway is asked", async (_, request) => {
    const { gateways, admin, order } = setUp();
    await expect(admin.refund(order.id, request)).rejects.toBeInstanceOf(RefundExceedsPayment);
    expect(gateways.gateway_b.refunds).toEqual([]);
  });

  test("of an order with nothing left to refund is refused", async () => {
    const { uow, gateways, admin, order, payment } = setUp();
    uow.payments.add({ ...payment, refunded_amount: 4900 });
    await expect(admin.refund(order.id, {})).rejects.toBeInstanceOf(NothingToRefund);
    await expect(admin.refund(order.id, { payment_id: "pi_1" })).rejects.toBeInstanceOf(NothingToRefund);
    expect(gateways.gateway_b.refunds).toEqual([]);
  });

  test("naming a payment of another order is refused", async () => {
    const { admin, order } = setUp();
    await expect(admin.refund(order.id, { payment_id: "pi_elsewhere" })).rejects.toBeInstanceOf(PaymentNotOfOrder);
  });

  test("of an order that does not exist is refused", async () => {
    const { admin } = setUp();
    await expect(admin.refund(crypto.randomUUID(), {})).rejects.toBeInstanceOf(OrderNotFound);
  });

  test("the gateway refused changes nothing here", async () => {
    const { uow, gateways, admin, order, payment } = setUp();
    gateways.gateway_b.refund = async () => ({ refund_id: "re_x", status: "failed" });
    await expect(admin.refund(order.id, {})).rejects.toBeInstanceOf(RefundFailed);
    expect(uow.payments.get(payment.id).refunded_amount).toBe(0);
    expect(uow.orders.get(order.id).status).toBe("paid");
  });

  test("the gateway unreachable refunds nothing here, and holds the amount until the refund is settled", async () => {
    const { uow, gateways, admin, order, payment } = setUp();
    gateways.gateway_b.fail("refund", new UpstreamUnreachable("gateway", "connection refused"));
    await expect(admin.refund(order.id, {})).rejects.toBeInstanceOf(UpstreamUnreachable);
    expect(uow.payments.get(payment.id).refunded_amount).toBe(0);
    expect(uow.orders.get(order.id).status).toBe("paid");
    expect(uow.payments.reservations()).toMatchObject([{ payment_id: payment.id, amount: 4900 }]);
    expect(uow.jobs.ofKind(settleRefundJob.kind)).toHaveLength(1);
  });

  test("of everything cancels the order's deliveries", async () => {
    const { uow, admin, order } = setUp();
    uow.fulfillments.add({ order_id: order.id, status: "active" });
    await admin.refund(order.id, {});
    expect(uow.jobs.ofKind(fulfillmentActionJob.kind)).toMatchObject([{ payload: { action: "cancel" } }]);
  });
});

describe("an admin approval", () => {
  test("delivers a flagged order, once however often it is approved", async () => {
    const { uow, admin, order } = setUp({ status: "flagged", needs_attention: true, attention_reason: "amount" });
    const approved = await admin.approve(order.id);
    expect(approved.order).toMatchObject({ status: "paid", needs_attention: false, attention_reason: null });
    expect(uow.jobs.ofKind(fulfillJob.kind)).toHaveLength(1);
    await expect(admin.approve(order.id)).rejects.toBeInstanceOf(NothingToApprove);
    expect(uow.jobs.ofKind(fulfillJob.kind)).toHaveLength(1);
  });

  test("of a paid order waiting for attention clears the flag and delivers what is not delivered yet", async () => {
    const { uow, admin, order } = setUp({ status: "paid", needs_attention: true, attention_reason: "check" });
    await admin.approve(order.id);
    expect(uow.orders.get(order.id).needs_attention).toBe(false);
    expect(uow.jobs.ofKind(fulfillJob.kind)).toHaveLength(1);
  });

  test("of an order needing nothing is refused and changes nothing", async () => {
    const { uow, admin, order } = setUp({ status: "paid" });
    await expect(admin.approve(order.id)).rejects.toBeInstanceOf(NothingToApprove);
    expect(uow.jobs.all()).toEqual([]);
  });

  test("of an order that does not exist is refused", async () => {
    const { admin } = setUp();
    await expect(admin.approve(crypto.randomUUID())).rejects.toBeInstanceOf(OrderNotFound);
  });
});

describe("the admin's order views", () => {
  test("show an order with its payments, and list orders by filter", async () => {
    const { uow, admin, order } = setUp({ status: "paid", needs_attention: true });
    uow.orders.add({ status: "pending_payment" });
    expect((await admin.get(order.id)).payments).toMatchObject([{ payment_id: "pi_1" }]);
    expect((await admin.list({ needs_attention: true }, { limit: 10 })).items.map((o) => o.id)).toEqual([order.id]);
    await expect(admin.get(crypto.randomUUID())).rejects.toBeInstanceOf(OrderNotFound);
  });
});

describe("the audit log", () => {
  test("a refund is one order.refund entry by the admin, in the refund's transaction", async () => {
    const { uow, admin, order } = setUp();
    await admin.refund(order.id, { amount: 1500 });
    expect(uow.audit.all()).toEqual([
      {
        actor_id: ADMIN,
        action: "order.refund",
        target_type: "order",
        target_id: order.id,
        summary: {
          payment_id: "pi_1",
          gateway: "gateway_b",
          refund_id: "re_gateway_b_1",
          amount: 1500,
          currency: expect.any(String),
        },
      },
    ]);
  });

  test("an approval is one order.approve entry with the status it moved", async () => {
    const { uow, admin, order } = setUp({ status: "flagged", needs_attention: true, attention_reason: "amount" });
    await admin.approve(order.id);
    expect(uow.audit.all()).toEqual([
      {
        actor_id: ADMIN,
        action: "order.approve",
        target_type: "order",
        target_id: order.id,
        summary: { status: { from: "flagged", to: "paid" }, needs_attention_cleared: true },
      },
    ]);
  });

  test("a refund the gateway refused, or one refused here, and a refused approval leave no entry", async () => {
    const { uow, gateways, admin, order } = setUp();
    await expect(admin.refund(order.id, { amount: 4901 })).rejects.toBeInstanceOf(RefundExceedsPayment);
    gateways.gateway_b.refund = async () => ({ refund_id: "re_x", status: "failed" });
    await expect(admin.refund(order.id, {})).rejects.toBeInstanceOf(RefundFailed);
    await expect(admin.approve(order.id)).rejects.toBeInstanceOf(NothingToApprove);
    expect(uow.audit.all()).toEqual([]);
  });

  test("the change and its entry commit together: an entry that cannot be written undoes the approval", async () => {
    const { uow, admin, order } = setUp({ status: "flagged", needs_attention: true, attention_reason: "amount" });
    uow.audit.record = async () => {
      throw new Error("the audit log is unavailable");
    };
    await expect(admin.approve(order.id)).rejects.toThrow("the audit log is unavailable");
    expect(uow.orders.get(order.id)).toMatchObject({ status: "flagged", needs_attention: true });
    expect(uow.jobs.all()).toEqual([]);
  });
});
