import { describe, expect, test } from "bun:test";
import { orderFulfillment } from "../../../application/fulfillment/order-fulfillment.ts";
import { makeAdminOrders } from "../../../application/payments/admin-orders.ts";
import { settleRefundJob } from "../../../application/payments/jobs.ts";
import { SETTLE_REFUND_AFTER_MS } from "../../../application/payments/refund-timing.ts";
import {
  IdempotencyKeyReused,
  UpstreamBadResponse,
  UpstreamRateLimited,
  UpstreamRejected,
  UpstreamServerError,
  UpstreamTimeout,
  UpstreamUnreachable,
} from "../../../application/shared/errors.ts";
import {
  NothingToRefund,
  RefundExceedsPayment,
  RefundInProgress,
  RefundOutcomeUnknown,
} from "../../../domain/payments/errors.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";
import { createWebhookSendingPaymentGateway } from "../../support/fakes/webhook-sending-payment-gateway.ts";

const ADMIN = "0b9a3c1e-5d4f-4a6b-8c7d-9e0f1a2b3c4d";
const NOW = new Date("2026-03-01T12:00:00Z");

function setUp() {
  const uow = createInMemoryUnitOfWork();
  const gateways = {
    gateway_a: createWebhookSendingPaymentGateway("gateway_a"),
    gateway_b: createWebhookSendingPaymentGateway("gateway_b"),
  };
  const orders = makeAdminOrders({
    orders: uow.orders.orderRepository(uow.payments),
    gateways,
    uow,
    clock: () => NOW,
    log: createRecordingLog(),
    fulfillment: orderFulfillment,
  });
  const { order } = uow.orders.add({ status: "paid" });
  const payment = uow.payments.add({ order_id: order.id, gateway: "gateway_b", payment_id: "pi_1", amount: 4900 });
  const refund = (request: { payment_id?: string; amount?: number }, key: string | null = null) =>
    orders.refund(order.id, request, ADMIN, key);
  /** The references the gateway was asked to refund under, in order. */
  const references = () => gateways.gateway_b.callsOf("refund").map((args) => args[2]);
  const settleJobs = () => uow.jobs.ofKind(settleRefundJob.kind);
  return { uow, gateways, orders, order, payment, refund, references, settleJobs };
}

/** Failures after which the gateway may have refunded: the reservation is held until it can tell. */
const UNKNOWN_OUTCOMES: [string, () => Error][] = [
  ["a time-out", () => new UpstreamTimeout("gateway", 10)],
  ["a 5xx", () => new UpstreamServerError("gateway", 503)],
  ["a garbage body", () => new UpstreamBadResponse("gateway", "not JSON")],
  ["a connection broken after sending", () => new UpstreamUnreachable("gateway", "connection reset")],
  ["a 409 (the same refund still running at the gateway)", () => new UpstreamRejected("gateway", 409, "lock", "")],
];

/** Failures known to have sent nothing the gateway could refund by: a retry may go at once. */
const NOTHING_SENT: [string, () => Error][] = [
  ["a 429", () => new UpstreamRateLimited("gateway", 2000)],
  ["connection refused", () => new UpstreamUnreachable("gateway", "connection refused", true)],
];

const LOST_ANSWERS = [...UNKNOWN_OUTCOMES, ...NOTHING_SENT];

describe("an admin refund's reservation", () => {
  test("names the refund at the gateway by the reservation, and is settled into the one refund", async () => {
    const { uow, payment, refund, references } = setUp();
    await refund({ amount: 1500 });
    const [made] = uow.payments.refunds();
    expect(references()).toEqual([made?.id]);
    expect(uow.payments.reservations()).toEqual([]);
    expect(uow.payments.get(payment.id).refunded_amount).toBe(1500);
  });

  test("counts against what is left while the gateway is being asked", async () => {
    const { gateways, refund } = setUp();
    const atGateway = gateways.gateway_b.hold("refund");
    const first = refund({ amount: 4000 });
    await atGateway.started;
    await expect(refund({ amount: 1000 })).rejects.toBeInstanceOf(RefundExceedsPayment);
    await refund({ amount: 900 });
    atGateway.release();
    await first;
    await expect(refund({})).rejects.toBeInstanceOf(NothingToRefund);
    expect(gateways.gateway_b.refunds.map((r) => r.amount)).toEqual([900, 4000]);
  });

  test.each(LOST_ANSWERS)(
    "after %s stays held, and a retry under the same key asks about the same refund and settles it",
    async (_, error) => {
      const { uow, gateways, payment, refund, references, settleJobs } = setUp();
      gateways.gateway_b.fail("refund", error());
      await expect(refund({ amount: 2000 }, "key-1")).rejects.toThrow();
      expect(uow.payments.reservations()).toMatchObject([{ amount: 2000 }]);
      expect(uow.payments.get(payment.id).refunded_amount).toBe(0);
      expect(settleJobs()).toMatchObject([{ runAt: new Date(NOW.getTime() + SETTLE_REFUND_AFTER_MS) }]);
      await expect(refund({ amount: 3000 })).rejects.toBeInstanceOf(RefundExceedsPayment);

      gateways.gateway_b.recover("refund");
      uow.payments.expireClaims();
      await refund({ amount: 2000 }, "key-1");
      const [first, second] = references();
      expect(second).toBe(first);
      expect(uow.payments.reservations()).toEqual([]);
      expect(uow.payments.refunds()).toMatchObject([{ id: first, amount: 2000 }]);
      expect(uow.payments.get(payment.id).refunded_amount).toBe(2000);
    },
  );

  test("a refusal that leaves no doubt releases it, and the amount can be refunded again", async () => {
    const { uow, gateways, payment, refund, references } = setUp();
    gateways.gateway_b.fail("refund", new UpstreamRejected("gateway", 400, "charge_disputed", "disputed"));
    await expect(refund({}, "key-1")).rejects.toBeInstanceOf(UpstreamRejected);
    expect(uow.payments.reservations()).toEqual([]);
    gateways.gateway_b.recover("refund");
    await refund({}, "key-1");
    expect(uow.payments.get(payment.id).refunded_amount).toBe(4900);
    const [first, second] = references();
    expect(second).not.toBe(first);
  });

  test("the settle job asks again about a reservation nobody settled, with the same reference", async () => {
    const { uow, gateways, orders, payment, refund, references, settleJobs } = setUp();
    gateways.gateway_b.fail("refund", new UpstreamTimeout("gateway", 10));
    await expect(refund({ amount: 700 })).rejects.toBeInstanceOf(UpstreamTimeout);
    gateways.gateway_b.recover("refund");
    uow.payments.expireClaims();
    const [job] = settleJobs();
    await orders.settleRefund(settleRefundJob.read(job?.payload ?? {}));
    expect(references()).toHaveLength(2);
    expect(new Set(references()).size).toBe(1);
    expect(uow.payments.get(payment.id).refunded_amount).toBe(700);
    expect(uow.audit.all()).toMatchObject([{ actor_id: ADMIN, action: "order.refund", summary: { amount: 700 } }]);
    await orders.settleRefund(settleRefundJob.read(job?.payload ?? {}));
    expect(references()).toHaveLength(2);
  });

  test("the settle job leaves alone a reservation someone is asking about, to come back later", async () => {
    const { gateways, orders, refund, references, settleJobs } = setUp();
    const atGateway = gateways.gateway_b.hold("refund");
    const running = refund({ amount: 700 });
    await atGateway.started;
    await expect(orders.settleRefund(settleRefundJob.read(settleJobs()[0]?.payload ?? {}))).rejects.toBeInstanceOf(
      RefundInProgress,
    );
    atGateway.release();
    await running;
    expect(references()).toHaveLength(1);
  });

  test("a retry under the same key while the first is still asking is refused as in progress", async () => {
    const { uow, gateways, refund, references } = setUp();
    gateways.gateway_b.fail("refund", new UpstreamTimeout("gateway", 10));
    await expect(refund({ amount: 700 }, "key-1")).rejects.toBeInstanceOf(UpstreamTimeout);
    gateways.gateway_b.recover("refund");
    uow.payments.expireClaims();
    const atGateway = gateways.gateway_b.hold("refund");
    const retry = refund({ amount: 700 }, "key-1");
    await atGateway.started;
    await expect(refund({ amount: 700 }, "key-1")).rejects.toBeInstanceOf(RefundInProgress);
    atGateway.release();
    await retry;
    expect(references()).toHaveLength(2);
  });

  test("a retry under the same key after the settle job made the refund refunds nothing more", async () => {
    const { uow, gateways, orders, payment, refund, references, settleJobs } = setUp();
    gateways.gateway_b.fail("refund", new UpstreamTimeout("gateway", 10));
    await expect(refund({ amount: 700 }, "key-1")).rejects.toBeInstanceOf(UpstreamTimeout);
    gateways.gateway_b.recover("refund");
    uow.payments.expireClaims();
    await orders.settleRefund(settleRefundJob.read(settleJobs()[0]?.payload ?? {}));
    const details = await refund({ amount: 700 }, "key-1");
    expect(references()).toHaveLength(2);
    expect(new Set(references()).size).toBe(1);
    expect(uow.payments.get(payment.id).refunded_amount).toBe(700);
    expect(details.refunds).toHaveLength(1);
  });
  test.each(UNKNOWN_OUTCOMES)("after %s, a retry straight away is in progress and asks nothing", async (_, error) => {
    const { uow, gateways, orders, refund, references, settleJobs } = setUp();
    gateways.gateway_b.fail("refund", error());
    await expect(refund({ amount: 2000 }, "key-1")).rejects.toThrow();
    gateways.gateway_b.recover("refund");
    await expect(refund({ amount: 2000 }, "key-1")).rejects.toBeInstanceOf(RefundInProgress);
    await expect(orders.settleRefund(settleRefundJob.read(settleJobs()[0]?.payload ?? {}))).rejects.toBeInstanceOf(
      RefundInProgress,
    );
    expect(references()).toHaveLength(1);
    expect(uow.payments.reservations()).toMatchObject([{ amount: 2000, outcome_unknown: true }]);
  });

  test("a retry after an attempt whose outcome is unknown asks the gateway to look the refund up first", async () => {
    const { uow, gateways, refund } = setUp();
    gateways.gateway_b.fail("refund", new UpstreamTimeout("gateway", 10));
    await expect(refund({ amount: 2000 }, "key-1")).rejects.toBeInstanceOf(UpstreamTimeout);
    gateways.gateway_b.recover("refund");
    uow.payments.expireClaims();
    await refund({ amount: 2000 }, "key-1");
    const asked = gateways.gateway_b.callsOf("refund").map((args) => args[3]);
    expect(asked).toEqual([{ lookUpFirst: false }, { lookUpFirst: true }]);
  });

  test.each(NOTHING_SENT)("after %s, a retry may ask again at once", async (_, error) => {
    const { uow, gateways, refund, references } = setUp();
    gateways.gateway_b.fail("refund", error());
    await expect(refund({ amount: 2000 }, "key-1")).rejects.toThrow();
    gateways.gateway_b.recover("refund");
    await refund({ amount: 2000 }, "key-1");
    expect(references()).toHaveLength(2);
    expect(uow.payments.reservations()).toEqual([]);
  });

  test("a refusal after an attempt whose outcome is unknown keeps the reservation, for the settle job", async () => {
    const { uow, gateways, orders, payment, refund, settleJobs } = setUp();
    gateways.gateway_b.fail("refund", new UpstreamTimeout("gateway", 10));
    await expect(refund({ amount: 2000 }, "key-1")).rejects.toBeInstanceOf(UpstreamTimeout);
    gateways.gateway_b.fail("refund", new UpstreamRejected("gateway", 400, "charge_already_refunded", "refunded"));
    uow.payments.expireClaims();
    await expect(refund({ amount: 2000 }, "key-1")).rejects.toBeInstanceOf(RefundOutcomeUnknown);
    expect(uow.payments.reservations()).toMatchObject([{ amount: 2000, outcome_unknown: true }]);
    uow.payments.expireClaims();
    await expect(orders.settleRefund(settleRefundJob.read(settleJobs()[0]?.payload ?? {}))).rejects.toBeInstanceOf(
      RefundOutcomeUnknown,
    );
    expect(uow.payments.reservations()).toMatchObject([{ amount: 2000 }]);
    await expect(refund({ amount: 3000 })).rejects.toBeInstanceOf(RefundExceedsPayment);
    expect(uow.payments.get(payment.id).refunded_amount).toBe(0);
  });

  test("the same key with another body after a failed attempt is refused and asks nothing", async () => {
    const { gateways, refund, references } = setUp();
    gateways.gateway_b.fail("refund", new UpstreamRateLimited("gateway", 1000));
    await expect(refund({ amount: 2000 }, "key-1")).rejects.toBeInstanceOf(UpstreamRateLimited);
    gateways.gateway_b.recover("refund");
    await expect(refund({ amount: 3000 }, "key-1")).rejects.toBeInstanceOf(IdempotencyKeyReused);
    await expect(refund({}, "key-1")).rejects.toBeInstanceOf(IdempotencyKeyReused);
    expect(references()).toHaveLength(1);
    await refund({ amount: 2000 }, "key-1");
    expect(gateways.gateway_b.refunds.map((r) => r.amount)).toEqual([2000]);
  });

  test("the same key with another body after the settle job made the refund is refused", async () => {
    const { uow, gateways, orders, refund, settleJobs } = setUp();
    gateways.gateway_b.fail("refund", new UpstreamTimeout("gateway", 10));
    await expect(refund({ amount: 700 }, "key-1")).rejects.toBeInstanceOf(UpstreamTimeout);
    gateways.gateway_b.recover("refund");
    uow.payments.expireClaims();
    await orders.settleRefund(settleRefundJob.read(settleJobs()[0]?.payload ?? {}));
    await expect(refund({ amount: 800 }, "key-1")).rejects.toBeInstanceOf(IdempotencyKeyReused);
  });
});
