import { describe, expect, test } from "bun:test";
import { fulfillJob } from "../../../application/fulfillment/jobs.ts";
import { deliverOrder, recordSubscriptions } from "../../../application/payments/deliveries.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";

describe("handing an order over to fulfillment", () => {
  test("queues one record and one job per item, and a repeat creates nothing twice", async () => {
    const uow = createInMemoryUnitOfWork();
    const { order, items } = uow.orders.add({ status: "paid" }, [{}, { fulfillment_driver: "manual_fulfillment" }]);
    await uow.run((scope) => deliverOrder(scope, order, items));
    await uow.run((scope) => deliverOrder(scope, order, items));
    const records = (await uow.fulfillments.list({ order_id: order.id }, { limit: 10 })).items;
    expect(records.map((record) => record.driver).sort()).toEqual(["license_download", "manual_fulfillment"]);
    expect(records.every((record) => record.status === "queued")).toBe(true);
    expect(
      uow.jobs
        .ofKind(fulfillJob.kind)
        .map((job) => job.payload.fulfillment_id)
        .sort(),
    ).toEqual(records.map((record) => record.id).sort());
  });
});

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
