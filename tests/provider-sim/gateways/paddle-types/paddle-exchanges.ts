import { createPaddleGateway } from "../../../../adapters/gateways/gateway-a/paddle-client.ts";
import type { CheckoutLine, CheckoutSessionRequest } from "../../../../application/payments/ports.ts";
import { createStaticGatewaySettings } from "../../../support/fakes/static-gateway-settings.ts";
import { A_KEY, A_SECRET, createGatewaySim, type GatewaySim, startMarketplace } from "../harness.ts";
import { everyPaddleEvent } from "../lifecycles.ts";
import type { Exchange } from "./wire-types.ts";

const line = (overrides: Partial<CheckoutLine>): CheckoutLine => ({
  order_item_id: "item_1",
  product_id: "mp_1",
  name: "POS Suite",
  variant: "regular",
  billing_interval: null,
  unit_amount: 4900,
  quantity: 1,
  trial_days: null,
  gateway_price_id: null,
  ...overrides,
});

const checkout = (orderId: string, lines: CheckoutLine[]): CheckoutSessionRequest => ({
  order_id: orderId,
  currency: "USD",
  lines,
  customer: { id: "cust_1", email: "ada@example.com", name: "Ada" },
  success_url: "https://shop.test/ok",
  cancel_url: "https://shop.test/cancel",
  tax_behavior: "exclusive",
});

/** The gateway_a API behind a recorder on a free port: every call through it is kept. */
function recorded(sim: GatewaySim) {
  const exchanges: Exchange[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      const text = await request.clone().text();
      const response = await sim.app.fetch(request);
      const answer = await response.clone().text();
      exchanges.push({
        method: request.method,
        path: url.pathname.replace(/^\/gateway_a/, ""),
        query: Object.fromEntries(url.searchParams),
        body: text === "" ? undefined : JSON.parse(text),
        status: response.status,
        response: answer === "" ? undefined : JSON.parse(answer),
      });
      return response;
    },
  });
  return { exchanges, baseUrl: `http://127.0.0.1:${server.port}/gateway_a`, stop: () => server.stop(true) };
}

/** The marketplace's gateway_a adapter through one catalog sync, two checkouts, refunds and a subscription's cancellations. */
async function marketplaceFlow(sim: GatewaySim, baseUrl: string) {
  const settings = createStaticGatewaySettings({
    gateway_a: { base_url: baseUrl, api_key: A_KEY, webhook_secrets: [A_SECRET] },
  });
  const gateway = createPaddleGateway({ settings });
  await gateway.testConnection();
  await gateway.findProductByMarketplaceId("mp_1");
  const product = await gateway.createProduct({
    marketplace_product_id: "mp_1",
    name: "POS Suite",
    description: "Tills",
  });
  const terms = { product_id: product.id, marketplace_product_id: "mp_1", currency: "USD" } as const;
  const monthly = await gateway.createPrice({
    ...terms,
    variant: "monthly",
    amount: 2900,
    billing_interval: "monthly",
    trial_days: 14,
    tax_behavior: "exclusive",
  });
  const once = await gateway.createPrice({
    ...terms,
    variant: "regular",
    amount: 4900,
    billing_interval: null,
    trial_days: null,
    tax_behavior: "inclusive",
  });
  await gateway.updatePrice(once, { amount: 5900, currency: "USD", tax_behavior: "exclusive" });
  await gateway.getProduct(product.id);
  await gateway.getPrice(monthly.id);
  await gateway.findProductByMarketplaceId("mp_1");

  const oneTime = await gateway.createCheckoutSession(
    checkout("ord_1", [line({ gateway_price_id: once.id, quantity: 2 }), line({ variant: "extended" })]),
  );
  const subscribed = await gateway.createCheckoutSession(
    checkout("ord_2", [line({ variant: "monthly", billing_interval: "monthly", unit_amount: 2900 })]),
  );
  for (const session of [oneTime, subscribed]) await sim.plain("POST", `/checkout/gateway_a/${session.session_id}/pay`);
  const payment = { payment_id: oneTime.session_id, order_id: "ord_1", currency: "USD" };
  await gateway.refund(payment, 1000);
  await gateway.refund(payment, null);

  const subscriptionId = (await sim.a("GET", `/transactions/${subscribed.session_id}`)).body.data.subscription_id;
  await gateway.getSubscription(subscriptionId);
  await gateway.scheduleCancellation(subscriptionId);
  await gateway.resumeSubscription(subscriptionId);
  await gateway.cancelSubscription(subscriptionId);
  await gateway.getProduct("pro_unknown");
}

/** Answers the marketplace never asks for, but which the sandbox serves: lists, customers and refusals. */
async function sandboxOnly(sim: GatewaySim, baseUrl: string) {
  const get = (path: string, init: RequestInit = {}) =>
    fetch(`${baseUrl}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${A_KEY}`, "content-type": "application/json" },
    });
  await get("/products?per_page=1");
  await get("/prices");
  await get("/customers");
  const listed = (await (await get("/customers?email=ada@example.com")).json()) as { data: { id: string }[] };
  await get(`/customers/${listed.data[0]?.id}`);
  await get("/customers", { method: "POST", body: JSON.stringify({ email: "ada@example.com" }) });
  await get("/customers", { method: "POST", body: JSON.stringify({ email: "bob@example.com", nickname: "b" }) });
  return sim;
}

/**
 * Everything gateway_a's sandbox and the marketplace exchange: the marketplace's own calls through
 * its adapter, the answers the sandbox gives to calls the marketplace does not make, and every
 * webhook of every kind the sandbox sends (the lifecycles of `everyPaddleEvent` on top).
 */
export async function recordPaddleExchanges() {
  const marketplace = startMarketplace();
  const sim = createGatewaySim({ PROVIDER_SIM_MARKETPLACE_URL: marketplace.url });
  const recorder = recorded(sim);
  try {
    await marketplaceFlow(sim, recorder.baseUrl);
    const marketplaceCalls = recorder.exchanges.length;
    await sandboxOnly(sim, recorder.baseUrl);
    await everyPaddleEvent(sim);
    const webhooks = await marketplace.settle();
    return {
      exchanges: recorder.exchanges,
      sentByMarketplace: recorder.exchanges.slice(0, marketplaceCalls),
      events: webhooks.map((webhook) => webhook.body as { event_type: string }),
    };
  } finally {
    recorder.stop();
    marketplace.stop();
  }
}
