import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createPaddleGateway } from "../../../adapters/gateways/gateway-a/paddle-client.ts";
import { createStripeGateway } from "../../../adapters/gateways/gateway-b/stripe-client.ts";
import { makeCustomerSubscriptions } from "../../../application/customers/customer-subscriptions.ts";
import { SubscriptionEnded } from "../../../application/customers/errors.ts";
import { orderFulfillment } from "../../../application/fulfillment/order-fulfillment.ts";
import type { GatewayCatalog, PaymentGateway } from "../../../application/payments/ports.ts";
import type { GatewayEvent } from "../../../domain/payments/gateway-event.ts";
import { createInMemoryCustomerReadModel } from "../../support/fakes/in-memory-customer-read-model.ts";
import { createInMemoryUnitOfWork } from "../../support/fakes/in-memory-unit-of-work.ts";
import { createStaticGatewaySettings } from "../../support/fakes/static-gateway-settings.ts";
import { START } from "../harness.ts";
import { aCheckoutLine, aCheckoutRequest } from "./flows.ts";
import { A_KEY, A_SECRET, B_KEY, B_SECRET, createGatewaySim } from "./harness.ts";

/**
 * The marketplace's own gateway adapters, unchanged, against the sandboxes over real HTTP: the
 * sandboxes serve what the adapters send, and their webhooks verify and normalize.
 */
let simServer: ReturnType<typeof Bun.serve>;
let marketplaceServer: ReturnType<typeof Bun.serve>;
const events: GatewayEvent[] = [];
let gateways: Record<"gateway_a" | "gateway_b", PaymentGateway & GatewayCatalog>;
let sim: ReturnType<typeof createGatewaySim>;

beforeAll(() => {
  marketplaceServer = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const name = new URL(request.url).pathname.split("/").at(-1) as "gateway_a" | "gateway_b";
      const rawBody = new Uint8Array(await request.arrayBuffer());
      await gateways[name].verifyWebhook({ rawBody, headers: Object.fromEntries(request.headers) });
      events.push(gateways[name].normalizeWebhookPayload(JSON.parse(new TextDecoder().decode(rawBody))));
      return new Response(null, { status: 200 });
    },
  });
  sim = createGatewaySim({ PROVIDER_SIM_MARKETPLACE_URL: `http://127.0.0.1:${marketplaceServer.port}` });
  simServer = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: sim.app.fetch });
  const base = `http://127.0.0.1:${simServer.port}`;
  const settings = createStaticGatewaySettings({
    gateway_a: { base_url: `${base}/gateway_a`, api_key: A_KEY, webhook_secrets: [A_SECRET] },
    gateway_b: { base_url: `${base}/gateway_b`, api_key: B_KEY, webhook_secrets: [B_SECRET] },
  });
  const now = () => START.getTime();
  gateways = { gateway_a: createPaddleGateway({ settings, now }), gateway_b: createStripeGateway({ settings, now }) };
});

afterAll(() => {
  simServer.stop(true);
  marketplaceServer.stop(true);
});

const aCheckout = (orderId: string, monthly: boolean, trialDays: number | null = null) =>
  aCheckoutRequest(orderId, [
    aCheckoutLine({
      product_id: "prod_1",
      variant: monthly ? "monthly" : "regular",
      billing_interval: monthly ? "monthly" : null,
      unit_amount: 2900,
      trial_days: trialDays,
    }),
  ]);

async function pay(url: string) {
  const response = await fetch(`${url.replace(/^http:\/\/sim\.test/, `http://127.0.0.1:${simServer.port}`)}/pay`, {
    method: "POST",
  });
  return (await response.json()) as { delivered: boolean };
}

describe.each(["gateway_a", "gateway_b"] as const)("%s adapter against its sandbox", (name) => {
  test("connection, checkout, paid webhook, subscription, renewal, refund and cancel", async () => {
    const gateway = gateways[name];
    expect(await gateway.testConnection()).toMatchObject({ ok: true, environment: "sandbox" });

    const session = await gateway.createCheckoutSession(aCheckout(`ord_${name}`, true));
    expect((await pay(session.url)).delivered).toBe(true);
    const paid = events.find((event) => event.kind === "paid");
    expect(paid).toMatchObject({ kind: "paid", order_id: `ord_${name}`, amount: 2900, currency: "USD" });
    const subscriptionId = paid?.kind === "paid" ? (paid.subscription?.subscription_id ?? "") : "";
    expect(await gateway.getSubscription(subscriptionId)).toMatchObject({ status: "active", cancelled_at: null });

    const renewed = await sim.plain("POST", `/__sim/${name}/subscriptions/${subscriptionId}/renew`);
    expect(renewed.body.delivered).toBe(true);
    expect(events.find((event) => event.kind === "renewed")).toMatchObject({
      subscription_id: subscriptionId,
      amount: 2900,
    });

    if (paid?.kind !== "paid") throw new Error("not paid");
    // A Stripe subscription's first payment names only its invoice; the gateway resolves the intent.
    const { payment_id } = await gateway.resolvePayment(paid.payment);
    const refund = await gateway.refund({ payment_id, order_id: paid.order_id, currency: "USD" }, 900, "rf_1");
    expect(refund.status).toBe("succeeded");
    // Asked again about the same refund (a retry after a lost answer), the gateway makes no second one.
    const again = await gateway.refund({ payment_id, order_id: paid.order_id, currency: "USD" }, 900, "rf_1");
    expect(again).toEqual(refund);
    const cancelled = await gateway.cancelSubscription(subscriptionId);
    expect(cancelled).toMatchObject({ status: "canceled", cancelled_at: expect.any(String) });
    const deadline = Date.now() + 3_000;
    while (events.filter((event) => event.kind === "refunded" || event.kind === "cancelled").length < 2) {
      if (Date.now() > deadline) throw new Error("background events did not arrive");
      await Bun.sleep(10);
    }
    expect(events.find((event) => event.kind === "refunded")).toMatchObject({ payment: { payment_id } });
    expect(events.find((event) => event.kind === "cancelled")).toMatchObject({ subscription_id: subscriptionId });
    events.length = 0;
  });

  test("a cancellation at the period end: scheduled, withdrawn, scheduled again, then taking effect", async () => {
    const gateway = gateways[name];
    const session = await gateway.createCheckoutSession(aCheckout(`ord_end_${name}`, true));
    await pay(session.url);
    const paid = events.find((event) => event.kind === "paid");
    const subscriptionId = paid?.kind === "paid" ? (paid.subscription?.subscription_id ?? "") : "";
    expect(await gateway.scheduleCancellation(subscriptionId)).toMatchObject({
      status: "active",
      cancel_at_period_end: true,
    });
    expect(await gateway.scheduleCancellation(subscriptionId)).toMatchObject({ cancel_at_period_end: true });
    expect(await gateway.resumeSubscription(subscriptionId)).toMatchObject({ cancel_at_period_end: false });
    expect(await gateway.getSubscription(subscriptionId)).toMatchObject({ cancel_at_period_end: false });
    await gateway.scheduleCancellation(subscriptionId);
    const ended = await sim.plain("POST", `/__sim/${name}/subscriptions/${subscriptionId}/renew`);
    expect(ended.body.outcome).toBe("ended");
    expect(await gateway.getSubscription(subscriptionId)).toMatchObject({ status: "canceled" });
    // Scheduled, withdrawn, scheduled: three updates in the background; the repeat changed nothing.
    const updates = () => events.filter((event) => event.kind === "subscription_updated");
    const deadline = Date.now() + 3_000;
    while (!events.some((event) => event.kind === "cancelled") || updates().length < 3) {
      if (Date.now() > deadline) throw new Error("the update and cancellation events did not arrive");
      await Bun.sleep(10);
    }
    expect(updates().every((event) => "subscription_id" in event && event.subscription_id === subscriptionId)).toBe(
      true,
    );
    events.length = 0;
  });

  test("a subscription the gateway ended: a customer's cancel or resume is SUBSCRIPTION_ENDED, and the record catches up", async () => {
    const gateway = gateways[name];
    const session = await gateway.createCheckoutSession(aCheckout(`ord_ended_${name}`, true));
    await pay(session.url);
    const paid = events.find((event) => event.kind === "paid");
    const subscriptionId = paid?.kind === "paid" ? (paid.subscription?.subscription_id ?? "") : "";
    await gateway.cancelSubscription(subscriptionId);

    const uow = createInMemoryUnitOfWork();
    const record = uow.subscriptions.add({
      customer_id: "cus-ada",
      gateway: name,
      gateway_subscription_id: subscriptionId,
    });
    const customers = makeCustomerSubscriptions({
      readModel: createInMemoryCustomerReadModel({ subscriptions: () => [uow.subscriptions.get(record.id)] }),
      subscriptions: uow.subscriptions,
      gateways,
      uow,
      clock: () => START,
      fulfillment: orderFulfillment,
    });
    for (const verb of ["cancel", "resume"] as const) {
      uow.subscriptions.update(record.id, { status: "active" });
      const refused = await customers[verb]("cus-ada", record.id).catch((error: unknown) => error);
      if (!(refused instanceof SubscriptionEnded)) throw refused;
      expect(refused.extensions).toMatchObject({ subscription: { status: "cancelled", gateway_status: "canceled" } });
      expect(uow.subscriptions.get(record.id).status).toBe("cancelled");
    }
    events.length = 0;
  });

  test("a trial checkout is paid with amount 0 and a trialing subscription", async () => {
    const gateway = gateways[name];
    const session = await gateway.createCheckoutSession(aCheckout(`ord_trial_${name}`, true, 14));
    await pay(session.url);
    const paid = events.find((event) => event.kind === "paid");
    expect(paid).toMatchObject({ amount: 0, currency: "USD" });
    const subscriptionId = paid?.kind === "paid" ? (paid.subscription?.subscription_id ?? "") : "";
    expect(await gateway.getSubscription(subscriptionId)).toMatchObject({
      status: "trialing",
      trial_ends_at: "2026-02-14T10:00:00.000Z",
    });
    events.length = 0;
  });

  test("catalog sync: create, find, read and reprice", async () => {
    const gateway = gateways[name];
    const product = await gateway.createProduct({
      marketplace_product_id: `mp_${name}`,
      name: "Theme",
      description: "",
    });
    expect(await gateway.findProductByMarketplaceId(`mp_${name}`)).toEqual(product);
    expect(await gateway.findProductByMarketplaceId("mp_none")).toBeUndefined();
    expect(await gateway.getProduct("missing_id")).toBeUndefined();
    const price = await gateway.createPrice({
      product_id: product.id,
      marketplace_product_id: `mp_${name}`,
      variant: "yearly",
      amount: 9900,
      currency: "USD",
      billing_interval: "yearly",
      trial_days: null,
      tax_behavior: "exclusive",
    });
    expect(price).toMatchObject({
      amount: 9900,
      currency: "USD",
      billing_interval: "yearly",
      variant: "yearly",
      active: true,
    });
    const updated = await gateway.updatePrice(price, { amount: 12900, currency: "USD", tax_behavior: "exclusive" });
    expect(updated).toMatchObject({ amount: 12900, variant: "yearly", active: true });
    expect(await gateway.getPrice(price.id)).toMatchObject({ active: name === "gateway_a" });
  });
});

describe.each([
  ["gateway_a", "canceled", "completed"],
  ["gateway_b", "expired", "complete"],
] as const)("%s adapter closing a checkout at its sandbox", (name, closed, paidStatus) => {
  test("an open checkout is closed once, then found closed; a paid one is found paid", async () => {
    const gateway = gateways[name];
    const open = await gateway.createCheckoutSession(aCheckout(`ord_expire_${name}`, false));
    expect(await gateway.expireCheckout(open.session_id)).toEqual({ closed_now: true, status: closed });
    expect(await gateway.expireCheckout(open.session_id)).toEqual({ closed_now: false, status: closed });
    const paid = await gateway.createCheckoutSession(aCheckout(`ord_paid_${name}`, false));
    expect((await pay(paid.url)).delivered).toBe(true);
    expect(await gateway.expireCheckout(paid.session_id)).toEqual({ closed_now: false, status: paidStatus });
    events.length = 0;
  });
});
