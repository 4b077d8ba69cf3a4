import { describe, expect, test } from "bun:test";
import { makeChangePlan } from "../../../application/customers/change-plan.ts";
import { orderFulfillment } from "../../../application/fulfillment/order-fulfillment.ts";
import type { SubscriptionRecord } from "../../../application/fulfillment/ports.ts";
import type { GatewayRef } from "../../../application/payments/ports.ts";
import { UpstreamRejected } from "../../../application/shared/errors.ts";
import { ValidationFailed } from "../../../domain/shared/errors.ts";
import { anOrderItem, aPaidOrder } from "../../support/builders/orders.ts";
import { createInMemoryCustomerReadModel } from "../../support/fakes/in-memory-customer-read-model.ts";
import { createInMemoryPaymentGateway } from "../../support/fakes/in-memory-payment-gateway.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";
import { createMovableClock } from "../../support/fakes/movable-clock.ts";

const ADA = "cus-ada";
const PERIOD_END = new Date("2026-07-01T00:00:00.000Z");
const PRICES = { monthly: 3100, yearly: 31000 } as Record<string, number | undefined>;

function setup(options: { refs?: GatewayRef[]; prices?: Record<string, number | undefined> } = {}) {
  const time = createMovableClock("2026-06-15T00:00:00.000Z");
  const uow = createInMemoryUnitOfWork();
  const { subscriptions } = uow;
  const shown: string[] = [];
  const readModel = createInMemoryCustomerReadModel({ subscriptions: () => shown.map((id) => subscriptions.get(id)) });
  const gateways = {
    gateway_a: createInMemoryPaymentGateway("gateway_a"),
    gateway_b: createInMemoryPaymentGateway("gateway_b"),
  };
  const order = aPaidOrder({ customer_id: ADA, payment_gateway: "gateway_b" });
  const item = anOrderItem(order, { product_id: "prod-pos", variant: "monthly", billing_interval: "monthly" });
  const prices = options.prices ?? PRICES;
  const service = makeChangePlan({
    subscriptions,
    orders: {
      find: async (id) =>
        id === order.id
          ? { order, items: [item], payments: [], refunds: [], disputes: [], subscriptions: [] }
          : undefined,
    },
    prices: { price: async (_product, variant) => prices[variant] },
    refs: { list: async () => options.refs ?? [] },
    gateways,
    policy: {
      gateway_a: { longer: "now", shorter: "period_end" },
      gateway_b: { longer: "now", shorter: "period_end" },
    },
    readModel,
    uow,
    fulfillment: orderFulfillment,
    clock: time.clock,
  });

  function aSubscription(overrides: Partial<SubscriptionRecord> = {}) {
    const record = subscriptions.add({
      order_id: order.id,
      order_item_id: item.id,
      customer_id: ADA,
      product_id: "prod-pos",
      gateway: "gateway_b",
      gateway_subscription_id: "sub_1",
      current_period_end: PERIOD_END,
      ...overrides,
    });
    shown.push(record.id);
    readModel.nameProduct(record.product_id, "Point of Sale");
    gateways.gateway_b.addSubscription("sub_1", {
      current_period_end: PERIOD_END.toISOString(),
      billing_interval: record.billing_interval,
    });
    return record;
  }

  return { service, subscriptions, gateways, uow, aSubscription, order };
}

describe("plan options", () => {
  test("the other interval the product sells, with the gateway's preview; a longer one applies now", async () => {
    const { service, aSubscription, gateways } = setup();
    const record = aSubscription();
    const plans = await service.options(ADA, record.id);
    expect(plans).toEqual({
      subscription_id: record.id,
      variant: "monthly",
      pending: null,
      options: [
        {
          variant: "yearly",
          effective: "now",
          price: 31000,
          currency: "USD",
          due_now: 31000,
          next_amount: 31000,
          next_billing_at: PERIOD_END,
        },
      ],
    });
    expect(gateways.gateway_b.callsOf("previewPlanChange")).toEqual([
      [expect.objectContaining({ subscription_id: "sub_1", variant: "yearly", gateway_price_id: null, timing: "now" })],
    ]);
  });

  test("a synced price is used only while its terms are the catalog's", async () => {
    const current: GatewayRef = {
      slot: "yearly",
      remote_id: "price_y",
      amount: 31000,
      currency: "USD",
      tax_behavior: "exclusive",
    };
    const { service, aSubscription, gateways } = setup({ refs: [current] });
    await service.options(ADA, aSubscription().id);
    expect(gateways.gateway_b.callsOf("previewPlanChange")[0]?.[0]).toMatchObject({ gateway_price_id: "price_y" });
    const stale = setup({ refs: [{ ...current, amount: 29000 }] });
    await stale.service.options(ADA, stale.aSubscription().id);
    expect(stale.gateways.gateway_b.callsOf("previewPlanChange")[0]?.[0]).toMatchObject({ gateway_price_id: null });
  });

  test("a variant the product does not sell is not offered", async () => {
    const { service, aSubscription } = setup({ prices: { monthly: 3100 } });
    expect((await service.options(ADA, aSubscription().id)).options).toEqual([]);
  });

  test.each([
    [{ status: "past_due" as const }, "SUBSCRIPTION_PAST_DUE"],
    [{ status: "suspended" as const }, "SUBSCRIPTION_PAST_DUE"],
    [{ status: "trialing" as const }, "SUBSCRIPTION_TRIALING"],
    [{ cancel_at_period_end: true }, "SUBSCRIPTION_CANCELLING"],
    [{ status: "cancelled" as const }, "SUBSCRIPTION_CANCELLED"],
    [{ gateway_subscription_id: null }, "SUBSCRIPTION_UNCONFIRMED"],
  ])("%o is refused with %s", async (overrides, code) => {
    const { service, aSubscription } = setup();
    const record = aSubscription(overrides);
    await expect(service.options(ADA, record.id)).rejects.toMatchObject({ code });
    await expect(service.change(ADA, record.id, "yearly")).rejects.toMatchObject({ code });
  });

  test("another customer's subscription is not found", async () => {
    const { service, aSubscription } = setup();
    await expect(service.options("cus-bob", aSubscription().id)).rejects.toMatchObject({
      code: "SUBSCRIPTION_NOT_FOUND",
    });
  });
});

describe("change plan", () => {
  test("to a longer interval: changed at the gateway now, the record follows, the delivery is told and the subscriber too", async () => {
    const { service, aSubscription, subscriptions, gateways, uow } = setup();
    const record = aSubscription();
    const changed = await service.change(ADA, record.id, "yearly");
    expect(changed.change).toMatchObject({ variant: "yearly", effective: "now" });
    expect(changed.subscription).toMatchObject({ billing_interval: "yearly", pending_interval: null });
    expect(subscriptions.get(record.id).billing_interval).toBe("yearly");
    expect(gateways.gateway_b.callsOf("changePlan")).toHaveLength(1);
    expect(uow.outbox.all().map((message) => message.kind)).toEqual(["subscription.plan_changed"]);
    expect(uow.outbox.all()[0]?.payload).toMatchObject({ from: "monthly", to: "yearly" });
  });

  test("to a shorter interval at a gateway that waits: the change is pending until the period end", async () => {
    const { service, aSubscription, subscriptions, uow } = setup();
    const record = aSubscription({ billing_interval: "yearly" });
    const changed = await service.change(ADA, record.id, "monthly");
    expect(changed.change).toEqual({ variant: "monthly", effective: "period_end", at: PERIOD_END });
    expect(subscriptions.get(record.id)).toMatchObject({
      billing_interval: "yearly",
      pending_interval: "monthly",
      pending_at: PERIOD_END,
    });
    expect(uow.outbox.all()).toEqual([]);
  });

  test("the same plan, or one not sold, is a field error on variant; nothing is asked of the gateway", async () => {
    const { service, aSubscription, gateways } = setup({ prices: { monthly: 3100 } });
    const record = aSubscription();
    for (const variant of ["monthly", "yearly"] as const) {
      const error = await service.change(ADA, record.id, variant).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ValidationFailed);
      expect((error as ValidationFailed).errors).toEqual([
        expect.objectContaining({ path: "/variant", code: "PLAN_NOT_OFFERED" }),
      ]);
    }
    expect(gateways.gateway_b.callsOf("changePlan")).toEqual([]);
  });

  test("a refusal of the subscriber's (a declined card) is a 409 with the gateway's words; the plan stays", async () => {
    const { service, aSubscription, subscriptions, gateways } = setup();
    const record = aSubscription();
    gateways.gateway_b.fail(
      "changePlan",
      new UpstreamRejected("gateway", 402, "card_declined", "Your card was declined."),
    );
    const error = await service.change(ADA, record.id, "yearly").catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "PLAN_CHANGE_REFUSED", category: "conflict" });
    expect((error as Error).message).toContain("Your card was declined.");
    expect(subscriptions.get(record.id).billing_interval).toBe("monthly");
  });

  test("a change the gateway's own event applied first leaves nothing pending", async () => {
    const { service, aSubscription, subscriptions, gateways, uow } = setup();
    const record = aSubscription();
    const held = gateways.gateway_b.hold("changePlan");
    const changing = service.change(ADA, record.id, "yearly");
    await held.started;
    // The subscription.updated job runs while the gateway answers.
    await subscriptions.update(record.id, { billing_interval: "yearly" });
    held.release();
    expect((await changing).change).toMatchObject({ variant: "yearly", effective: "now" });
    expect(subscriptions.get(record.id)).toMatchObject({ billing_interval: "yearly", pending_interval: null });
    expect(uow.outbox.all()).toEqual([]);
  });

  test("a gateway failure changes nothing here", async () => {
    const { service, aSubscription, subscriptions, gateways, uow } = setup();
    const record = aSubscription();
    gateways.gateway_b.fail("changePlan", new Error("connection reset"));
    await expect(service.change(ADA, record.id, "yearly")).rejects.toThrow("connection reset");
    expect(subscriptions.get(record.id).billing_interval).toBe("monthly");
    expect(uow.outbox.all()).toEqual([]);
  });
});
