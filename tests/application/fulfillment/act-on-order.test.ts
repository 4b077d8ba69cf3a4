import { describe, expect, test } from "bun:test";
import { actOnOrder } from "../../../application/fulfillment/act-on-order.ts";
import { fulfillmentActionJob } from "../../../application/fulfillment/jobs.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";

describe("acting on an order's deliveries", () => {
  test("queues the action for every delivery of the order, or of one item only", async () => {
    const uow = createInMemoryUnitOfWork();
    const orderId = crypto.randomUUID();
    const first = uow.fulfillments.add({ order_id: orderId });
    const second = uow.fulfillments.add({ order_id: orderId });
    uow.fulfillments.add();
    await uow.run((scope) => actOnOrder(scope, { order_id: orderId }, "suspend", "payment disputed", "dp_1"));
    await uow.run((scope) =>
      actOnOrder(scope, { order_id: orderId, order_item_id: second.order_item_id }, "cancel", "lost", "dp_1"),
    );
    const queued = uow.jobs
      .ofKind(fulfillmentActionJob.kind)
      .map((job) => `${job.payload.action} ${job.payload.fulfillment_id}`);
    expect(queued.sort()).toEqual([`cancel ${second.id}`, `suspend ${first.id}`, `suspend ${second.id}`].sort());
  });

  test("the same action for the same cause is queued once; another cause queues it again", async () => {
    const uow = createInMemoryUnitOfWork();
    const record = uow.fulfillments.add();
    const act = (cause: string) =>
      uow.run((scope) => actOnOrder(scope, { order_id: record.order_id }, "suspend", "payment disputed", cause));
    await act("dp_1");
    await act("dp_1");
    await act("dp_2");
    expect(uow.jobs.ofKind(fulfillmentActionJob.kind).map((job) => job.dedupeKey)).toEqual([
      `suspend:${record.id}:dp_1`,
      `suspend:${record.id}:dp_2`,
    ]);
  });
});
