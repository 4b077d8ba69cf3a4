import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createStripeGateway } from "../../../../adapters/gateways/gateway-b/stripe-client.ts";
import type { CheckoutSessionRequest } from "../../../../application/payments/ports.ts";
import { decodeFormBody } from "../../../../provider-sim/gateways/form-body.ts";
import { createStaticGatewaySettings } from "../../../support/fakes/static-gateway-settings.ts";
import { START } from "../../harness.ts";
import { B_KEY, B_SECRET, createGatewaySim, startMarketplace } from "../harness.ts";
import { type TypedSample, typeCheck } from "./stripe-type-check.ts";

/**
 * Every request the marketplace's Stripe client sends, recorded in front of the gateway_b sandbox,
 * decoded from its form body or query and compiled with `tsc --strict` as an object literal of the
 * official `stripe` package's params type for its route.
 */
const TSC_TIMEOUT_MS = 120_000;

let marketplace: ReturnType<typeof startMarketplace>;
let sim: ReturnType<typeof createGatewaySim>;
let server: ReturnType<typeof Bun.serve>;
const requests: { method: string; path: string; query: string; body: string }[] = [];

beforeAll(() => {
  marketplace = startMarketplace();
  sim = createGatewaySim({ PROVIDER_SIM_MARKETPLACE_URL: marketplace.url });
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      const body = await request.clone().text();
      requests.push({ method: request.method, path: url.pathname, query: url.search.slice(1), body });
      return sim.app.fetch(request);
    },
  });
});

afterAll(() => {
  server.stop(true);
  marketplace.stop();
});

const sample = (label: string, type: string, value: unknown): TypedSample => ({ label, type, value });

/** A decoded form or query as Stripe reads it: `true`/`false` and integers are typed, metadata stays text. */
function revive(value: unknown, key = ""): unknown {
  if (Array.isArray(value)) return value.map((item) => revive(item));
  if (typeof value === "object" && value !== null) {
    const inMetadata = key === "metadata";
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [name, inMetadata ? item : revive(item, name)]),
    );
  }
  if (value === "true" || value === "false") return value === "true";
  return typeof value === "string" && /^-?\d+$/.test(value) ? Number(value) : value;
}

const ROUTES: readonly [string, RegExp, string][] = [
  ["POST", /^\/v1\/checkout\/sessions$/, "Stripe.Checkout.SessionCreateParams"],
  ["POST", /^\/v1\/refunds$/, "Stripe.RefundCreateParams"],
  ["GET", /^\/v1\/subscriptions\/[^/]+$/, "Stripe.SubscriptionRetrieveParams"],
  ["POST", /^\/v1\/subscriptions\/[^/]+$/, "Stripe.SubscriptionUpdateParams"],
  ["DELETE", /^\/v1\/subscriptions\/[^/]+$/, "Stripe.SubscriptionCancelParams"],
  ["GET", /^\/v1\/products\/search$/, "Stripe.ProductSearchParams"],
  ["POST", /^\/v1\/products$/, "Stripe.ProductCreateParams"],
  ["GET", /^\/v1\/products\/[^/]+$/, "Stripe.ProductRetrieveParams"],
  ["POST", /^\/v1\/prices$/, "Stripe.PriceCreateParams"],
  ["GET", /^\/v1\/prices\/[^/]+$/, "Stripe.PriceRetrieveParams"],
  ["POST", /^\/v1\/prices\/[^/]+$/, "Stripe.PriceUpdateParams"],
  ["GET", /^\/v1\/invoices\/[^/]+$/, "Stripe.InvoiceRetrieveParams"],
  ["GET", /^\/v1\/charges\/[^/]+$/, "Stripe.ChargeRetrieveParams"],
  ["GET", /^\/v1\/balance$/, "Stripe.BalanceRetrieveParams"],
];

function checkout(orderId: string, interval: "monthly" | null, trialDays: number | null, priceId: string | null) {
  return {
    order_id: orderId,
    currency: "USD",
    lines: [
      {
        order_item_id: "item_1",
        product_id: "prod_1",
        name: "POS Suite",
        variant: interval ?? "regular",
        billing_interval: interval,
        unit_amount: 2900,
        quantity: 2,
        trial_days: trialDays,
        gateway_price_id: priceId,
      },
      {
        order_item_id: "item_2",
        product_id: "prod_2",
        name: "Setup",
        variant: "regular",
        billing_interval: null,
        unit_amount: 500,
        quantity: 1,
        trial_days: null,
        gateway_price_id: null,
      },
    ],
    customer: { id: "cust_1", email: "ada@example.com", name: "Ada" },
    success_url: "https://shop.test/ok?session={CHECKOUT_SESSION_ID}",
    cancel_url: "https://shop.test/cancel",
    tax_behavior: "exclusive",
  } satisfies CheckoutSessionRequest;
}

/** Drives every call the marketplace's Stripe client makes, against the sandbox. */
async function everyMarketplaceRequest() {
  const settings = createStaticGatewaySettings({
    gateway_b: { base_url: `http://127.0.0.1:${server.port}/gateway_b`, api_key: B_KEY, webhook_secrets: [B_SECRET] },
  });
  const gateway = createStripeGateway({ settings, now: () => START.getTime() });
  const pay = (url: string) => sim.plain("POST", `${new URL(url).pathname}/pay`);
  const paidEvent = async (orderId: string) => {
    const received = await marketplace.settle();
    const event = received
      .filter((webhook) => webhook.body.type === "checkout.session.completed")
      .map((webhook) => gateway.normalizeWebhookPayload(webhook.body))
      .find((normalized) => normalized.kind === "paid" && normalized.order_id === orderId);
    if (event?.kind !== "paid") throw new Error(`no paid event for ${orderId}`);
    return event;
  };

  expect(await gateway.testConnection()).toMatchObject({ ok: true });
  const product = await gateway.createProduct({ marketplace_product_id: "mp_1", name: "POS", description: "Tills" });
  await gateway.findProductByMarketplaceId("mp_1");
  await gateway.getProduct(product.id);
  const monthly = await gateway.createPrice({
    product_id: product.id,
    marketplace_product_id: "mp_1",
    variant: "monthly",
    amount: 2900,
    currency: "USD",
    billing_interval: "monthly",
    trial_days: null,
    tax_behavior: "exclusive",
  });
  await gateway.getPrice(monthly.id);
  const repriced = await gateway.updatePrice(monthly, { amount: 3900, currency: "USD", tax_behavior: "exclusive" });

  const once = await gateway.createCheckoutSession(checkout("ord_req_once", null, null, null));
  await pay(once.url);
  const oncePaid = await paidEvent("ord_req_once");
  await gateway.refund(
    { payment_id: oncePaid.payment.payment_id ?? "", order_id: "ord_req_once", currency: "USD" },
    100,
  );

  const sub = await gateway.createCheckoutSession(checkout("ord_req_sub", "monthly", 14, null));
  await pay(sub.url);
  const subPaid = await paidEvent("ord_req_sub");
  const subscriptionId = subPaid.subscription?.subscription_id ?? "";
  await gateway.resolvePayment(subPaid.payment);
  await gateway.scheduleCancellation(subscriptionId);
  await gateway.resumeSubscription(subscriptionId);
  await gateway.getSubscription(subscriptionId);
  await gateway.cancelSubscription(subscriptionId);

  const byPrice = await gateway.createCheckoutSession(checkout("ord_req_price", "monthly", null, repriced.id));
  await pay(byPrice.url);
  const charge = (await sim.b("GET", `/payment_intents/${oncePaid.payment.payment_intent_id}`)).body.latest_charge;
  await gateway.resolvePayment({ payment_id: null, charge_id: charge });
}

describe("the marketplace's Stripe client sends what the official stripe package's params types allow", () => {
  test(
    "every request's decoded form or query type-checks as a literal under tsc --strict",
    async () => {
      requests.length = 0;
      await everyMarketplaceRequest();
      const samples = requests
        .filter((request) => request.path.startsWith("/gateway_b/"))
        .map((request) => {
          const path = request.path.replace(/^\/gateway_b/, "");
          const route = ROUTES.find(([method, pattern]) => method === request.method && pattern.test(path));
          const fields = decodeFormBody(request.method === "GET" ? request.query : request.body);
          return sample(`${request.method} ${path}`, route?.[2] ?? "never", revive(fields));
        });
      const routes = new Set(samples.map((entry) => entry.type));
      expect([...routes].sort()).toEqual(ROUTES.map(([, , type]) => type).sort());
      expect(await typeCheck(samples)).toEqual({});
    },
    TSC_TIMEOUT_MS,
  );
});
