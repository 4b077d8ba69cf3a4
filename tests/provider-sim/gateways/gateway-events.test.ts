import { afterEach, describe, expect, test } from "bun:test";
import { aTransaction } from "./flows.ts";
import { createGatewaySim, type GatewaySim, paddleSignatureValid, startMarketplace } from "./harness.ts";

let marketplace: ReturnType<typeof startMarketplace>;
afterEach(() => marketplace?.stop());

function simWithMarketplace(statuses: number[] = []) {
  marketplace = startMarketplace(statuses);
  return createGatewaySim({ PROVIDER_SIM_MARKETPLACE_URL: marketplace.url });
}

/** A paid gateway_a checkout; returns the transaction id and its subscription id (when monthly). */
async function paidTransaction(sim: GatewaySim, options: { monthly?: boolean; amount?: string } = {}) {
  const transaction = await aTransaction(sim, { ...options, orderId: "ord_a" });
  await sim.plain("POST", `/checkout/gateway_a/${transaction.id}/pay`);
  const paid = (await sim.a("GET", `/transactions/${transaction.id}`)).body.data;
  return { transaction: paid, subscriptionId: paid.subscription_id as string };
}

describe("gateway_a events from API calls and controls", () => {
  test("a partial then a full refund are approved at once and each emits a signed adjustment.created", async () => {
    const sim = simWithMarketplace();
    const { transaction } = await paidTransaction(sim, { amount: "5000" });
    const itemId = transaction.details.line_items[0].id;
    const partial = await sim.a("POST", "/adjustments", {
      body: {
        action: "refund",
        transaction_id: transaction.id,
        reason: "customer asked",
        type: "partial",
        items: [{ item_id: itemId, type: "partial", amount: "1500" }],
      },
    });
    expect(partial.status).toBe(201);
    expect(partial.body.data).toMatchObject({ status: "approved", totals: { total: "1500", currency_code: "USD" } });
    expect(partial.body.data.id).toStartWith("adj_");
    const full = await sim.a("POST", "/adjustments", {
      body: { action: "refund", transaction_id: transaction.id, reason: "rest", type: "full" },
    });
    expect(full.body.data.totals.total).toBe("3500");
    const nothingLeft = await sim.a("POST", "/adjustments", {
      body: { action: "refund", transaction_id: transaction.id, reason: "again", type: "full" },
    });
    expect(nothingLeft.status).toBe(422);

    const received = await marketplace.waitFor(3);
    // Background deliveries race each other, as real gateways' do: order by amount.
    const refunds = received
      .slice(1)
      .map((webhook) => webhook.body)
      .sort((x, y) => Number(x.data.totals.total) - Number(y.data.totals.total));
    expect(
      refunds.map((event) => [
        event.event_type,
        event.data.action,
        event.data.status,
        event.data.transaction_id,
        event.data.totals.total,
      ]),
    ).toEqual([
      ["adjustment.created", "refund", "approved", transaction.id, "1500"],
      ["adjustment.created", "refund", "approved", transaction.id, "3500"],
    ]);
    for (const webhook of received)
      expect(paddleSignatureValid(webhook.headers.get("paddle-signature"), webhook.raw)).toBe(true);
  });

  test("cancelling a subscription emits subscription.canceled once", async () => {
    const sim = simWithMarketplace();
    const { subscriptionId } = await paidTransaction(sim, { monthly: true });
    const cancel = () =>
      sim.a("POST", `/subscriptions/${subscriptionId}/cancel`, { body: { effective_from: "immediately" } });
    const cancelled = await cancel();
    expect(cancelled.body.data).toMatchObject({
      id: subscriptionId,
      status: "canceled",
      canceled_at: "2026-01-31T10:00:00.000Z",
    });
    // As Paddle does, a canceled subscription refuses being canceled again, and says nothing more.
    expect(await cancel()).toMatchObject({
      status: 400,
      body: { error: { type: "request_error", code: "subscription_is_canceled_action_invalid" } },
    });
    const received = await marketplace.waitFor(2);
    await Bun.sleep(50);
    expect(received).toHaveLength(2);
    expect(received[1]?.body).toMatchObject({
      event_type: "subscription.canceled",
      data: { id: subscriptionId, status: "canceled", custom_data: { order_id: "ord_a" } },
    });
  });

  test("__sim renew bills the next period as subscription_recurring; __sim cancel emits subscription.canceled", async () => {
    const sim = simWithMarketplace();
    const { transaction, subscriptionId } = await paidTransaction(sim, { monthly: true });
    const renewed = await sim.plain("POST", `/__sim/gateway_a/subscriptions/${subscriptionId}/renew`);
    expect(renewed).toMatchObject({ status: 200, body: { delivered: true, status: 200, outcome: "renewed" } });
    const received = await marketplace.waitFor(4);
    expect(received.slice(1).map((webhook) => webhook.body.event_type)).toEqual([
      "subscription.updated",
      "transaction.paid",
      "transaction.completed",
    ]);
    expect(received[1]?.body.data.current_billing_period).toEqual(received[3]?.body.data.billing_period);
    const renewal = received[3]?.body;
    expect(renewal).toMatchObject({
      event_id: renewed.body.event_id,
      event_type: "transaction.completed",
      data: {
        origin: "subscription_recurring",
        status: "completed",
        subscription_id: subscriptionId,
        custom_data: { order_id: "ord_a" },
        details: { totals: { grand_total: "2900" } },
        billing_period: { starts_at: transaction.billing_period.ends_at, ends_at: "2026-03-28T10:00:00.000Z" },
      },
    });
    expect(renewal.data.id).not.toBe(transaction.id);
    const cancelled = await sim.plain("POST", `/__sim/gateway_a/subscriptions/${subscriptionId}/cancel`);
    expect(cancelled.body).toMatchObject({ delivered: true, subscription: { status: "canceled" } });
    expect((await marketplace.waitFor(5))[4]?.body.event_type).toBe("subscription.canceled");
    expect((await sim.plain("POST", `/__sim/gateway_a/subscriptions/${subscriptionId}/renew`)).status).toBe(409);
    expect((await sim.plain("POST", "/__sim/gateway_a/subscriptions/sub_unknown/renew")).status).toBe(404);
  });
});

describe("delivery", () => {
  test("a background delivery is retried after a non-2xx answer, with the same event id", async () => {
    const sim = simWithMarketplace([200, 503]);
    const { subscriptionId } = await paidTransaction(sim, { monthly: true });
    await sim.a("POST", `/subscriptions/${subscriptionId}/cancel`, { body: { effective_from: "immediately" } });
    const received = await marketplace.waitFor(3);
    expect(received.map((webhook) => webhook.body.event_type)).toEqual([
      "transaction.completed",
      "subscription.canceled",
      "subscription.canceled",
    ]);
    expect(received[2]?.body.event_id).toBe(received[1]?.body.event_id);
    await Bun.sleep(20);
    const log = (await sim.plain("GET", "/__sim/gateway_events")).body.events;
    expect(log.map((entry: any) => [entry.event_type, entry.delivered, entry.status, entry.attempts])).toEqual([
      ["transaction.completed", true, 200, 1],
      ["subscription.canceled", true, 200, 2],
    ]);
    expect(log[1].event.data.id).toBe(subscriptionId);
  });

  test("a background delivery gives up after three failed attempts", async () => {
    const sim = simWithMarketplace([200, 500, 500, 500]);
    const { subscriptionId } = await paidTransaction(sim, { monthly: true });
    await sim.a("POST", `/subscriptions/${subscriptionId}/cancel`, { body: { effective_from: "immediately" } });
    await marketplace.waitFor(4);
    await Bun.sleep(100);
    expect(marketplace.received).toHaveLength(4);
    const log = (await sim.plain("GET", "/__sim/gateway_events")).body.events;
    expect(log[1]).toMatchObject({ event_type: "subscription.canceled", delivered: false, status: 500, attempts: 3 });
  });
});
