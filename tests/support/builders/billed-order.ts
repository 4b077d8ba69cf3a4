import type { createInMemoryUnitOfWork } from "../fakes/in-memory-unit-of-work.ts";

/** An order of `count` items, each delivered and billed by the one gateway subscription `sub_1`. */
export function aBilledOrder(uow: ReturnType<typeof createInMemoryUnitOfWork>, count = 1) {
  const { order, items } = uow.orders.add(
    { status: "paid" },
    Array.from({ length: count }, () => ({ billing_interval: "monthly" as const })),
  );
  return items.map((item) => ({
    record: uow.fulfillments.add({ order_id: order.id, order_item_id: item.id, status: "active" }),
    subscription: uow.subscriptions.add({
      order_id: order.id,
      order_item_id: item.id,
      gateway: "gateway_b",
      gateway_subscription_id: "sub_1",
    }),
  }));
}
