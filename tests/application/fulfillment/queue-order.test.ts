import { describe, expect, test } from "bun:test";
import { fulfillJob } from "../../../application/fulfillment/jobs.ts";
import { queueOrder } from "../../../application/fulfillment/queue-order.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";

describe("handing an order over to fulfillment", () => {
  test("queues one record and one job per item, and a repeat creates nothing twice", async () => {
    const uow = createInMemoryUnitOfWork();
    const { order, items } = uow.orders.add({ status: "paid" }, [{}, { fulfillment_driver: "manual_fulfillment" }]);
    await uow.run((scope) => queueOrder(scope, order, items));
    await uow.run((scope) => queueOrder(scope, order, items));
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
