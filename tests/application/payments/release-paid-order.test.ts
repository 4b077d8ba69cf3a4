import { describe, expect, test } from "bun:test";
import type { OrderFulfillment } from "../../../application/payments/fulfillment-ports.ts";
import { releasePaidOrder } from "../../../application/payments/release-paid-order.ts";
import type { FulfillmentRecord } from "../../../domain/fulfillment/fulfillment.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";

/** Fulfillment as payments sees it, queueing what it is told to queue the first time only. */
function aFulfillmentThatQueues() {
  const asked: string[] = [];
  const fulfillment: Pick<OrderFulfillment, "queueOrder"> = {
    async queueOrder(_scope, order, items) {
      const first = !asked.includes(order.id);
      asked.push(order.id);
      return first ? items.map((item) => ({ order_item_id: item.id }) as unknown as FulfillmentRecord) : [];
    },
  };
  return { fulfillment, asked };
}

describe("releasing a paid order", () => {
  test("asks fulfillment to queue its items and tells the shop's systems once, when they are first queued", async () => {
    const uow = createInMemoryUnitOfWork();
    const { fulfillment, asked } = aFulfillmentThatQueues();
    const { order, items } = uow.orders.add({ status: "paid" }, [{}, {}]);

    await uow.run((scope) => releasePaidOrder(scope, fulfillment, order, items));
    await uow.run((scope) => releasePaidOrder(scope, fulfillment, order, items));

    expect(asked).toEqual([order.id, order.id]);
    expect(uow.events.ofType("order.paid")).toMatchObject([{ data: { order_id: order.id } }]);
    expect(uow.events.ofType("order.paid")[0]?.data.items).toHaveLength(2);
  });
});
