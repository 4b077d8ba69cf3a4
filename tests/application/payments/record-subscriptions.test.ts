import { describe, expect, test } from "bun:test";
import { recordSubscriptions } from "../../../application/payments/record-subscriptions.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";

describe("recording an order's subscriptions", () => {
  test("records one per recurring item and none for one-time items", async () => {
    const uow = createInMemoryUnitOfWork();
    const { order, items } = uow.orders.add({}, [{ billing_interval: "yearly", trial_days: 14 }, {}]);
    const now = new Date("2026-01-15T00:00:00.000Z");
    await uow.run((scope) => recordSubscriptions(scope, order, items, null, now));
    const yearly = await uow.scopedSubscriptions.findForItem(items[0]?.id ?? "");
    expect(yearly).toMatchObject({
      billing_interval: "yearly",
      status: "trialing",
      gateway_subscription_id: null,
      trial_ends_at: new Date("2026-01-29T00:00:00.000Z"),
    });
    expect(await uow.scopedSubscriptions.findForItem(items[1]?.id ?? "")).toBeUndefined();
  });

  test("a later call completes the gateway id without making a second subscription", async () => {
    const uow = createInMemoryUnitOfWork();
    const { order, items } = uow.orders.add({}, [{ billing_interval: "monthly" }]);
    const now = new Date("2026-01-15T00:00:00.000Z");
    await uow.run((scope) => recordSubscriptions(scope, order, items, null, now));
    const facts = { subscription_id: "sub_1", trial_ends_at: null, current_period_end: null };
    await uow.run((scope) => recordSubscriptions(scope, order, items, facts, now));
    expect(await uow.scopedSubscriptions.findByGatewayId("gateway_b", "sub_1")).toHaveLength(1);
  });
});
