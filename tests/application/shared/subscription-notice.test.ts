import { describe, expect, test } from "bun:test";
import { noticeSubscription, TRIAL_OCCURRENCE } from "../../../application/shared/subscription-notice.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";

function setUp() {
  const uow = createInMemoryUnitOfWork();
  // One gateway subscription billing two items of one order: two records.
  const first = uow.subscriptions.add({ gateway: "gateway_b", gateway_subscription_id: "sub_shared" });
  const second = uow.subscriptions.add({
    gateway: "gateway_b",
    gateway_subscription_id: "sub_shared",
    order_id: first.order_id,
    customer_id: first.customer_id,
  });
  return { uow, first, second };
}

describe("a subscription notice", () => {
  test("is written with its job and its outgoing event, in the caller's transaction", async () => {
    const { uow, first } = setUp();
    await uow.run((scope) => noticeSubscription(scope, "subscription.payment_failed", first, "evt_1", { reason: "x" }));
    expect(uow.outbox.all()).toEqual([
      expect.objectContaining({
        kind: "subscription.payment_failed",
        payload: {
          subscription_id: first.id,
          order_id: first.order_id,
          order_item_id: first.order_item_id,
          customer_id: first.customer_id,
          reason: "x",
        },
      }),
    ]);
    expect(uow.jobs.ofKind("notify")).toHaveLength(1);
    expect(uow.events.ofType("subscription.payment_failed")).toEqual([
      {
        type: "subscription.payment_failed",
        data: expect.objectContaining({ subscription_id: first.id, reason: "x" }),
      },
    ]);
  });

  test("is told once per occurrence of one gateway subscription, whichever of its items or reports repeats it", async () => {
    const { uow, first, second } = setUp();
    await uow.run(async (scope) => {
      for (const record of [first, second, first]) {
        await noticeSubscription(scope, "subscription.trial_ending", record, TRIAL_OCCURRENCE);
      }
    });
    await uow.run((scope) => noticeSubscription(scope, "subscription.trial_ending", second, TRIAL_OCCURRENCE));
    expect(uow.outbox.all()).toHaveLength(1);
    expect(uow.events.ofType("subscription.trial_ending")).toHaveLength(1);
    // Another occurrence, or another kind, is told again.
    await uow.run((scope) => noticeSubscription(scope, "subscription.payment_failed", first, "evt_2"));
    await uow.run((scope) => noticeSubscription(scope, "subscription.payment_failed", first, "evt_3"));
    expect(uow.outbox.all()).toHaveLength(3);
  });

  test("a renewal's notice publishes no event of its own: the payment's event already went out", async () => {
    const { uow, first } = setUp();
    await uow.run((scope) => noticeSubscription(scope, "subscription.renewed", first, "p-1", { payment_id: "p-1" }));
    expect(uow.outbox.all()).toHaveLength(1);
    expect(uow.events.all()).toEqual([]);
  });

  test("a transaction that fails takes its notice with it, and the notice can be told again", async () => {
    const { uow, first } = setUp();
    await expect(
      uow.run(async (scope) => {
        await noticeSubscription(scope, "subscription.payment_failed", first, "evt_9");
        throw new Error("the state change failed");
      }),
    ).rejects.toThrow("the state change failed");
    expect(uow.outbox.all()).toEqual([]);
    await uow.run((scope) => noticeSubscription(scope, "subscription.payment_failed", first, "evt_9"));
    expect(uow.outbox.all()).toHaveLength(1);
  });
});
