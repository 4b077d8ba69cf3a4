import { describe, expect, test } from "bun:test";
import { flagOrderForAttention } from "../../../application/payments/attention.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";

describe("flagging an order for attention", () => {
  test("flags it, publishes order.needs_attention with its public fields, and alerts operations once per reason", async () => {
    const uow = createInMemoryUnitOfWork();
    const { order } = uow.orders.add({ total: 4900, currency: "EUR", status: "paid" });
    await uow.run(async (scope) => {
      await flagOrderForAttention(scope, order.id, "amount differs");
      await flagOrderForAttention(scope, order.id, "amount differs");
      await flagOrderForAttention(scope, order.id, "dispute opened");
    });
    const events = uow.events.ofType("order.needs_attention");
    expect(events).toHaveLength(3);
    expect(events[0]?.data).toMatchObject({
      order_id: order.id,
      customer_id: order.customer_id,
      total: 4900,
      currency: "EUR",
      needs_attention: true,
      reason: "amount differs",
    });
    expect(JSON.stringify(events)).not.toContain("checkout_url");
    expect(uow.alerts.all().map((alert) => alert.occurrence)).toEqual(["amount differs", "dispute opened"]);
    expect(uow.alerts.all()[0]).toMatchObject({
      kind: "order_needs_attention",
      target_id: order.id,
      details: { reason: "amount differs", status: "paid", total: "49.00 EUR" },
    });
  });

  test("an order that does not exist is neither published nor alerted", async () => {
    const uow = createInMemoryUnitOfWork();
    await uow.run((scope) => flagOrderForAttention(scope, "missing", "why"));
    expect(uow.events.all()).toEqual([]);
    expect(uow.alerts.all()).toEqual([]);
  });
});
