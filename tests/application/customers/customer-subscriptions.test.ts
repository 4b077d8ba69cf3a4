import { describe, expect, test } from "bun:test";
import { makeCustomerSubscriptions } from "../../../application/customers/customer-subscriptions.ts";
import { fulfillmentActionJob } from "../../../application/fulfillment/jobs.ts";
import { orderFulfillment } from "../../../application/fulfillment/order-fulfillment.ts";
import type { SubscriptionRecord } from "../../../application/fulfillment/ports.ts";
import { UpstreamRejected, UpstreamUnreachable } from "../../../application/shared/errors.ts";
import { createInMemoryCustomerReadModel } from "../../support/fakes/in-memory-customer-read-model.ts";
import { createInMemoryPaymentGateway } from "../../support/fakes/in-memory-payment-gateway.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";
import { createMovableClock } from "../../support/fakes/movable-clock.ts";

const ADA = "cus-ada";
const PERIOD_END = new Date("2026-07-01T00:00:00.000Z");

function setup() {
  const time = createMovableClock("2026-06-15T00:00:00.000Z");
  const uow = createInMemoryUnitOfWork();
  const { subscriptions } = uow;
  const shown: string[] = [];
  const readModel = createInMemoryCustomerReadModel({ subscriptions: () => shown.map((id) => subscriptions.get(id)) });
  const gateways = {
    gateway_a: createInMemoryPaymentGateway("gateway_a"),
    gateway_b: createInMemoryPaymentGateway("gateway_b"),
  };
  const service = makeCustomerSubscriptions({
    readModel,
    subscriptions,
    gateways,
    uow,
    clock: time.clock,
    fulfillment: orderFulfillment,
  });

  /** A subscription of Ada's, known to its gateway unless it has no gateway id yet. */
  function aSubscription(overrides: Partial<SubscriptionRecord> = {}) {
    const record = subscriptions.add({
      customer_id: ADA,
      product_id: "prod-pos",
      gateway: "gateway_b",
      gateway_subscription_id: "sub_1",
      current_period_end: PERIOD_END,
      ...overrides,
    });
    shown.push(record.id);
    readModel.nameProduct(record.product_id, "Point of Sale");
    const gateway = gateways[record.gateway as "gateway_a" | "gateway_b"];
    const remoteId = record.gateway_subscription_id;
    if (remoteId && !gateway.subscriptions.has(remoteId)) {
      gateway.addSubscription(remoteId, {
        current_period_end: record.current_period_end?.toISOString() ?? null,
        cancel_at_period_end: record.cancel_at_period_end,
      });
    }
    return record;
  }

  return { service, subscriptions, gateways, time, uow, aSubscription };
}

describe("cancel", () => {
  test("schedules the cancellation at the gateway and shows the subscription running out", async () => {
    const { service, subscriptions, gateways, aSubscription } = setup();
    const record = aSubscription();
    const view = await service.cancel(ADA, record.id);
    expect(view).toMatchObject({
      id: record.id,
      product_name: "Point of Sale",
      status: "active",
      cancel_at_period_end: true,
      current_period_end: PERIOD_END,
    });
    expect(subscriptions.get(record.id).cancel_at_period_end).toBe(true);
    expect(gateways.gateway_b.callsOf("scheduleCancellation")).toEqual([["sub_1"]]);
    expect(gateways.gateway_b.subscriptions.get("sub_1")?.cancel_at_period_end).toBe(true);
  });

  test("every item billed by the same gateway subscription runs out with it; other subscriptions stay", async () => {
    const { service, subscriptions, aSubscription } = setup();
    const first = aSubscription();
    const second = aSubscription();
    const other = aSubscription({ gateway_subscription_id: "sub_2" });
    await service.cancel(ADA, first.id);
    expect(subscriptions.get(second.id).cancel_at_period_end).toBe(true);
    expect(subscriptions.get(other.id).cancel_at_period_end).toBe(false);
  });

  test("asking twice is fine: the subscription stays scheduled to run out", async () => {
    const { service, subscriptions, aSubscription } = setup();
    const record = aSubscription();
    await service.cancel(ADA, record.id);
    expect((await service.cancel(ADA, record.id)).cancel_at_period_end).toBe(true);
    expect(subscriptions.get(record.id).cancel_at_period_end).toBe(true);
  });

  test("goes to the gateway that bills the subscription", async () => {
    const { service, gateways, aSubscription } = setup();
    const record = aSubscription({ gateway: "gateway_a", gateway_subscription_id: "sub_a1" });
    await service.cancel(ADA, record.id);
    expect(gateways.gateway_a.callsOf("scheduleCancellation")).toEqual([["sub_a1"]]);
    expect(gateways.gateway_b.calls).toEqual([]);
  });

  test("another customer's subscription, or an unknown one, is SUBSCRIPTION_NOT_FOUND and nothing is asked", async () => {
    const { service, gateways, aSubscription } = setup();
    const record = aSubscription();
    await expect(service.cancel("cus-mallory", record.id)).rejects.toMatchObject({ code: "SUBSCRIPTION_NOT_FOUND" });
    await expect(service.cancel(ADA, crypto.randomUUID())).rejects.toMatchObject({ code: "SUBSCRIPTION_NOT_FOUND" });
    expect(gateways.gateway_b.calls).toEqual([]);
  });

  test("an ended subscription is SUBSCRIPTION_CANCELLED, and nothing is asked", async () => {
    const { service, gateways, aSubscription } = setup();
    const record = aSubscription({ status: "cancelled", cancelled_at: new Date("2026-06-01T00:00:00Z") });
    await expect(service.cancel(ADA, record.id)).rejects.toMatchObject({
      code: "SUBSCRIPTION_CANCELLED",
      category: "conflict",
    });
    expect(gateways.gateway_b.calls).toEqual([]);
  });

  test("a subscription the gateway has not confirmed yet is SUBSCRIPTION_UNCONFIRMED", async () => {
    const { service, subscriptions, aSubscription } = setup();
    const record = aSubscription({ gateway_subscription_id: null });
    await expect(service.cancel(ADA, record.id)).rejects.toMatchObject({ code: "SUBSCRIPTION_UNCONFIRMED" });
    expect(subscriptions.get(record.id).cancel_at_period_end).toBe(false);
  });

  test("a gateway failure surfaces with its code and the record is left as it was", async () => {
    const { service, subscriptions, gateways, aSubscription } = setup();
    const record = aSubscription();
    gateways.gateway_b.fail("scheduleCancellation", new UpstreamUnreachable("gateway", "connection refused"));
    await expect(service.cancel(ADA, record.id)).rejects.toMatchObject({ code: "GATEWAY_UNREACHABLE" });
    expect(subscriptions.get(record.id)).toEqual(record);
  });
});

describe("resume", () => {
  test("withdraws a scheduled cancellation before the period ends", async () => {
    const { service, subscriptions, gateways, aSubscription } = setup();
    const record = aSubscription();
    await service.cancel(ADA, record.id);
    const view = await service.resume(ADA, record.id);
    expect(view).toMatchObject({ id: record.id, cancel_at_period_end: false });
    expect(subscriptions.get(record.id).cancel_at_period_end).toBe(false);
    expect(gateways.gateway_b.callsOf("resumeSubscription")).toEqual([["sub_1"]]);
    expect(gateways.gateway_b.subscriptions.get("sub_1")?.cancel_at_period_end).toBe(false);
  });

  test("once the paid period is over, a scheduled cancellation cannot be withdrawn: SUBSCRIPTION_PERIOD_ENDED", async () => {
    const { service, subscriptions, gateways, time, aSubscription } = setup();
    const record = aSubscription();
    await service.cancel(ADA, record.id);
    time.advance(PERIOD_END.getTime() - time.now().getTime());
    await expect(service.resume(ADA, record.id)).rejects.toMatchObject({ code: "SUBSCRIPTION_PERIOD_ENDED" });
    expect(gateways.gateway_b.callsOf("resumeSubscription")).toEqual([]);
    expect(subscriptions.get(record.id).cancel_at_period_end).toBe(true);
  });

  test("a millisecond before the period ends, the cancellation can still be withdrawn", async () => {
    const { service, time, aSubscription } = setup();
    const record = aSubscription();
    await service.cancel(ADA, record.id);
    time.advance(PERIOD_END.getTime() - time.now().getTime() - 1);
    expect((await service.resume(ADA, record.id)).cancel_at_period_end).toBe(false);
  });

  test("resuming a subscription with nothing scheduled changes nothing, even past its period end", async () => {
    const { service, subscriptions, time, aSubscription } = setup();
    const record = aSubscription();
    time.advance(time.hours(24 * 30));
    expect((await service.resume(ADA, record.id)).cancel_at_period_end).toBe(false);
    expect(subscriptions.get(record.id)).toEqual(record);
  });

  test("another customer's subscription is SUBSCRIPTION_NOT_FOUND and nothing is asked", async () => {
    const { service, gateways, aSubscription } = setup();
    const record = aSubscription({ cancel_at_period_end: true });
    await expect(service.resume("cus-mallory", record.id)).rejects.toMatchObject({ code: "SUBSCRIPTION_NOT_FOUND" });
    expect(gateways.gateway_b.calls).toEqual([]);
  });

  test("an ended subscription is SUBSCRIPTION_CANCELLED", async () => {
    const { service, aSubscription } = setup();
    const record = aSubscription({ status: "cancelled", cancel_at_period_end: true });
    await expect(service.resume(ADA, record.id)).rejects.toMatchObject({ code: "SUBSCRIPTION_CANCELLED" });
  });

  test("a gateway failure surfaces and the cancellation stays scheduled", async () => {
    const { service, subscriptions, gateways, aSubscription } = setup();
    const record = aSubscription();
    await service.cancel(ADA, record.id);
    gateways.gateway_b.fail("resumeSubscription", new UpstreamUnreachable("gateway", "connection reset"));
    await expect(service.resume(ADA, record.id)).rejects.toMatchObject({ code: "GATEWAY_UNREACHABLE" });
    expect(subscriptions.get(record.id).cancel_at_period_end).toBe(true);
  });
});

describe.each(["gateway_a", "gateway_b"] as const)("a subscription %s has already ended", (gateway) => {
  const ENDED_AT = "2026-06-14T09:30:00.000Z";

  /** The gateway ended it (a full refund, say) before the marketplace heard: it refuses a change. */
  function endedAtGateway(change: "scheduleCancellation" | "resumeSubscription") {
    const context = setup();
    const record = context.aSubscription({ gateway, gateway_subscription_id: `sub_${gateway}` });
    const remote = context.gateways[gateway];
    remote.addSubscription(`sub_${gateway}`, { status: "canceled", cancelled_at: ENDED_AT });
    remote.fail(change, new UpstreamRejected("gateway", 400, "subscription_canceled", "it is canceled"));
    return { ...context, record, remote };
  }

  test.each([
    ["cancel", "scheduleCancellation"],
    ["resume", "resumeSubscription"],
  ] as const)(
    "%s is a 409 SUBSCRIPTION_ENDED with the ended state, and the record catches up",
    async (verb, change) => {
      const { service, subscriptions, uow, record, remote } = endedAtGateway(change);
      const delivered = uow.fulfillments.add({ order_id: record.order_id, order_item_id: record.order_item_id });
      const refused = await service[verb](ADA, record.id).catch((error: unknown) => error);
      expect(refused).toMatchObject({
        code: "SUBSCRIPTION_ENDED",
        category: "conflict",
        extensions: {
          subscription: { id: record.id, status: "cancelled", gateway_status: "canceled", cancelled_at: ENDED_AT },
        },
      });
      expect(remote.callsOf("getSubscription")).toEqual([[`sub_${gateway}`]]);
      expect(subscriptions.get(record.id)).toMatchObject({ status: "cancelled", cancelled_at: new Date(ENDED_AT) });
      expect(uow.events.ofType("subscription.cancelled")).toHaveLength(1);
      // Its deliveries end with it, as the gateway's own cancellation event (late, or lost) would end them.
      expect(uow.jobs.ofKind(fulfillmentActionJob.kind).map((job) => job.payload)).toEqual([
        {
          fulfillment_id: delivered.id,
          action: "cancel",
          reason: "subscription ended at the gateway",
          cause: `ended at the gateway:sub_${gateway}`,
        },
      ]);
      await expect(service[verb](ADA, record.id)).rejects.toMatchObject({ code: "SUBSCRIPTION_CANCELLED" });
    },
  );

  test("a refusal of a subscription the gateway still bills surfaces as it was, and the record stays", async () => {
    const { service, subscriptions, record, remote } = endedAtGateway("scheduleCancellation");
    remote.addSubscription(`sub_${gateway}`, { status: "past_due" });
    await expect(service.cancel(ADA, record.id)).rejects.toBeInstanceOf(UpstreamRejected);
    expect(subscriptions.get(record.id).status).toBe(record.status);
  });

  test("when the gateway cannot be asked what it is now, the refusal surfaces and nothing is guessed", async () => {
    const { service, subscriptions, record, remote } = endedAtGateway("scheduleCancellation");
    remote.fail("getSubscription", new UpstreamUnreachable("gateway", "connection refused"));
    await expect(service.cancel(ADA, record.id)).rejects.toBeInstanceOf(UpstreamRejected);
    expect(subscriptions.get(record.id).status).toBe(record.status);
  });
});
