import { describe, expect, test } from "bun:test";
import {
  makeExpireGatewayCheckout,
  makeExpireUnpaidOrders,
} from "../../../application/checkout/expire-unpaid-orders.ts";
import { expireCheckoutJob } from "../../../application/checkout/jobs.ts";
import {
  UpstreamRateLimited,
  UpstreamServerError,
  UpstreamTimeout,
  UpstreamUnreachable,
} from "../../../application/shared/errors.ts";
import type { StoredPayload } from "../../../application/shared/jobs.ts";
import type { Order } from "../../../domain/orders/order.ts";
import { createInMemoryPaymentGateway } from "../../support/fakes/in-memory-payment-gateway.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";
import { firstRun } from "../../support/jobs.ts";

const PLACED = new Date("2026-01-15T09:30:00.000Z");
const MINUTES = 30;

function setUp() {
  const uow = createInMemoryUnitOfWork();
  const log = createRecordingLog();
  const gateways = {
    gateway_a: createInMemoryPaymentGateway("gateway_a"),
    gateway_b: createInMemoryPaymentGateway("gateway_b"),
  };
  const expireOrders = makeExpireUnpaidOrders({ uow, log, minutes: MINUTES });
  const handler = makeExpireGatewayCheckout({ orders: uow.orders.orderRepository(uow.payments), gateways, log });
  /** The job's handler, given a stored payload as the worker gives it. */
  const closeCheckout = (stored: StoredPayload) => handler(expireCheckoutJob.read(stored), firstRun());
  const anOrder = (overrides: Partial<Order> = {}) => uow.orders.add({ created_at: PLACED, ...overrides }).order;
  /** Runs every expire job recorded so far, as the worker would. */
  const runJobs = async () => {
    for (const job of uow.jobs.ofKind(expireCheckoutJob.kind)) await closeCheckout(job.payload);
  };
  return { uow, log, gateways, expireOrders, closeCheckout, anOrder, runJobs };
}

const at = (minutes: number) => new Date(PLACED.getTime() + minutes * 60_000);

describe("expiring unpaid orders", () => {
  test("each expired order's checkout is closed at its own gateway", async () => {
    const t = setUp();
    const a = t.anOrder({ payment_gateway: "gateway_a", checkout_session_id: "txn_1" });
    const b = t.anOrder({ payment_gateway: "gateway_b", checkout_session_id: "cs_1" });
    expect(await t.expireOrders(at(MINUTES + 1))).toBe(2);
    await t.runJobs();
    expect(t.gateways.gateway_a.callsOf("expireCheckout")).toEqual([["txn_1"]]);
    expect(t.gateways.gateway_b.callsOf("expireCheckout")).toEqual([["cs_1"]]);
    expect(t.uow.orders.get(a.id).status).toBe("expired");
    expect(t.uow.orders.get(b.id).status).toBe("expired");
    expect(t.log.messages()).toContain("checkout expired at the gateway");
  });

  test("an order placed less than the expiry ago is left alone", async () => {
    const t = setUp();
    const order = t.anOrder();
    expect(await t.expireOrders(at(MINUTES - 1))).toBe(0);
    expect(t.uow.orders.get(order.id).status).toBe("pending_payment");
  });

  test("a checkout the gateway had closed already is fine, and said so", async () => {
    const t = setUp();
    t.anOrder({ checkout_session_id: "cs_1" });
    await t.expireOrders(at(MINUTES + 1));
    await t.runJobs();
    await t.runJobs();
    expect(t.gateways.gateway_b.callsOf("expireCheckout")).toHaveLength(2);
    expect(t.log.messages()).toContain("checkout was already closed at the gateway");
  });

  test("an order whose checkout never opened calls no gateway", async () => {
    const t = setUp();
    t.anOrder({ status: "checkout_failed", checkout_session_id: null });
    expect(await t.expireOrders(at(MINUTES + 1))).toBe(1);
    await t.runJobs();
    expect(t.gateways.gateway_b.callsOf("expireCheckout")).toEqual([]);
  });

  test("an order paid in the meantime (flagged) calls no gateway", async () => {
    const t = setUp();
    const order = t.anOrder({ checkout_session_id: "cs_1" });
    await t.expireOrders(at(MINUTES + 1));
    await t.uow.run((scope) => scope.orders.move(t.uow.orders.get(order.id), "flagged"));
    await t.runJobs();
    expect(t.gateways.gateway_b.callsOf("expireCheckout")).toEqual([]);
  });

  test.each([
    ["a time-out", new UpstreamTimeout("gateway", 10)],
    ["a 5xx", new UpstreamServerError("gateway", 503)],
    ["a 429", new UpstreamRateLimited("gateway", 5000)],
    ["a refused connection", new UpstreamUnreachable("gateway", "connection refused")],
  ])("%s fails the job so that it is retried, and the next run closes the checkout", async (_, error) => {
    const t = setUp();
    const order = t.anOrder({ checkout_session_id: "cs_1" });
    await t.expireOrders(at(MINUTES + 1));
    t.gateways.gateway_b.fail("expireCheckout", error);
    const [job] = t.uow.jobs.ofKind(expireCheckoutJob.kind);
    expect(job?.payload).toEqual({ order_id: order.id });
    expect(job?.dedupeKey).toBe(`expire-checkout:${order.id}`);
    await expect(t.closeCheckout(job?.payload ?? {})).rejects.toBe(error);
    expect(error.transient).toBeTrue();
    t.gateways.gateway_b.recover("expireCheckout");
    await t.closeCheckout(job?.payload ?? {});
    expect(t.gateways.gateway_b.callsOf("expireCheckout")).toEqual([["cs_1"], ["cs_1"]]);
    expect(t.log.messages()).toContain("checkout expired at the gateway");
  });

  test("a job for an order that no longer exists does nothing", async () => {
    const t = setUp();
    await t.closeCheckout({ order_id: crypto.randomUUID() });
    expect(t.gateways.gateway_b.calls).toEqual([]);
  });
});
