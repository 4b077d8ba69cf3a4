import { describe, expect, test } from "bun:test";
import {
  endOrderBilling,
  endSubscriptionBilling,
  makeEndGatewaySubscription,
} from "../../../application/payments/end-gateway-subscription.ts";
import { endGatewaySubscriptionJob } from "../../../application/payments/jobs.ts";
import { UpstreamRejected, UpstreamUnreachable } from "../../../application/shared/errors.ts";
import { aBilledOrder } from "../../support/builders/billed-order.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";
import { createMovableClock } from "../../support/fakes/movable-clock.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";
import { createWebhookSendingPaymentGateway } from "../../support/fakes/webhook-sending-payment-gateway.ts";

describe("ending an order's billing", () => {
  test("queues the ending of every live gateway subscription of the order, once", async () => {
    const uow = createInMemoryUnitOfWork();
    const [billed] = aBilledOrder(uow);
    await uow.run((scope) => endOrderBilling(scope, billed?.record.order_id ?? "", "payment refunded"));
    await uow.run((scope) => endOrderBilling(scope, billed?.record.order_id ?? "", "payment refunded"));
    expect(uow.jobs.ofKind(endGatewaySubscriptionJob.kind)).toMatchObject([
      { payload: { subscription_id: billed?.subscription.id, reason: "payment refunded" } },
    ]);
  });
});

describe("ending one subscription's billing", () => {
  test("queues the ending job for it, once however often it is asked", async () => {
    const uow = createInMemoryUnitOfWork();
    const [billed] = aBilledOrder(uow);
    const subscription = billed?.subscription ?? { id: "" };
    await uow.run((scope) => endSubscriptionBilling(scope, subscription, "customer asked"));
    await uow.run((scope) => endSubscriptionBilling(scope, subscription, "customer asked"));
    expect(uow.jobs.ofKind(endGatewaySubscriptionJob.kind)).toEqual([
      {
        kind: endGatewaySubscriptionJob.kind,
        payload: { subscription_id: subscription.id, reason: "customer asked" },
        dedupeKey: `end-subscription:${subscription.id}`,
      },
    ]);
  });
});

describe("the job that ends a subscription at its gateway", () => {
  function setUp() {
    const uow = createInMemoryUnitOfWork();
    const gateway = createWebhookSendingPaymentGateway("gateway_b");
    gateway.addSubscription("sub_1");
    const { clock } = createMovableClock("2026-01-15T09:30:00.000Z");
    const end = makeEndGatewaySubscription({
      subscriptions: uow.subscriptions,
      uow,
      gateways: { gateway_a: createWebhookSendingPaymentGateway("gateway_a"), gateway_b: gateway },
      clock,
      log: createRecordingLog(),
    });
    const [billed] = aBilledOrder(uow);
    if (!billed) throw new Error("no subscription");
    const run = () => end({ subscription_id: billed.subscription.id, reason: "refunded" });
    return { uow, gateway, run, subscription: billed.subscription };
  }

  test("cancels it at the gateway and records it cancelled; a rerun calls the gateway no more", async () => {
    const { uow, gateway, run, subscription } = setUp();
    await run();
    await run();
    expect(gateway.callsOf("cancelSubscription")).toEqual([["sub_1"]]);
    expect(gateway.subscriptions.get("sub_1")?.status).toBe("canceled");
    expect(uow.subscriptions.get(subscription.id)).toMatchObject({
      status: "cancelled",
      cancelled_at: new Date("2026-01-15T09:30:00.000Z"),
    });
  });

  test("a gateway that no longer knows the subscription bills nothing either: recorded cancelled", async () => {
    const { uow, gateway, run, subscription } = setUp();
    gateway.fail(
      "cancelSubscription",
      new UpstreamRejected("gateway", 404, "resource_missing", "no such subscription"),
    );
    await run();
    expect(uow.subscriptions.get(subscription.id).status).toBe("cancelled");
  });

  test("a refusal of what already ended at the gateway is recorded cancelled", async () => {
    const { uow, gateway, run, subscription } = setUp();
    gateway.addSubscription("sub_1", { status: "canceled" });
    gateway.fail("cancelSubscription", new UpstreamRejected("gateway", 400, "invalid_request", "already canceled"));
    await run();
    expect(uow.subscriptions.get(subscription.id).status).toBe("cancelled");
  });

  test("a refusal while it still bills fails the job and records nothing", async () => {
    const { uow, gateway, run, subscription } = setUp();
    gateway.fail("cancelSubscription", new UpstreamRejected("gateway", 400, "invalid_request", "locked"));
    await expect(run()).rejects.toBeInstanceOf(UpstreamRejected);
    expect(uow.subscriptions.get(subscription.id).status).toBe("active");
  });

  test("an unreachable gateway is retried: nothing recorded meanwhile", async () => {
    const { uow, gateway, run, subscription } = setUp();
    gateway.fail("cancelSubscription", new UpstreamUnreachable("gateway", "connection refused"));
    await expect(run()).rejects.toBeInstanceOf(UpstreamUnreachable);
    expect(uow.subscriptions.get(subscription.id).status).toBe("active");
    gateway.recover("cancelSubscription");
    await run();
    expect(uow.subscriptions.get(subscription.id).status).toBe("cancelled");
  });

  test("a subscription that does not exist is left alone", async () => {
    const { gateway } = setUp();
    const other = createInMemoryUnitOfWork();
    const end = makeEndGatewaySubscription({
      subscriptions: other.subscriptions,
      uow: other,
      gateways: { gateway_a: gateway, gateway_b: gateway },
      clock: () => new Date(),
      log: createRecordingLog(),
    });
    await end({ subscription_id: crypto.randomUUID(), reason: "x" });
    expect(gateway.calls).toEqual([]);
  });
});
