import { describe, expect, test } from "bun:test";
import { HttpResponse } from "msw";
import { createStripeGateway } from "../../../../adapters/gateways/gateway-b/stripe-client.ts";
import type { CheckoutLine, CheckoutSessionRequest } from "../../../../application/payments/ports.ts";
import { UpstreamBadResponse } from "../../../../application/shared/errors.ts";
import { InvalidWebhookSignature } from "../../../../domain/payments/errors.ts";
import { createStaticGatewaySettings } from "../../../support/fakes/static-gateway-settings.ts";
import { signStripeWebhook } from "../../../support/webhook-signers.ts";
import { failure, mockStripeApi } from "./stripe-api-mock.ts";
import { aStripeSubscription } from "./stripe-objects.ts";

const { answer } = mockStripeApi();
const API_KEY = "sk_test_0123456789abcdefghij";
const ORDER = "7b0d1c9e-2f4a-4c1b-9f5e-0a1b2c3d4e5f";

function setup() {
  const settings = createStaticGatewaySettings();
  return { settings, gateway: createStripeGateway({ settings }) };
}

const aLine = (overrides: Partial<CheckoutLine> = {}): CheckoutLine => ({
  order_item_id: crypto.randomUUID(),
  product_id: crypto.randomUUID(),
  name: "Aurora Theme",
  variant: "regular",
  billing_interval: null,
  unit_amount: 4900,
  quantity: 1,
  trial_days: null,
  gateway_price_id: null,
  ...overrides,
});

const aCheckoutRequest = (lines: CheckoutLine[]): CheckoutSessionRequest => ({
  tax_behavior: "exclusive",
  order_id: ORDER,
  currency: "USD",
  lines,
  customer: { id: crypto.randomUUID(), email: "buyer@example.com", name: "Bea Buyer" },
  success_url: "https://shop.test/orders/done?x=1",
  cancel_url: "https://shop.test/cart",
});

const aSession = (overrides: Record<string, unknown> = {}) => ({
  id: "cs_test_1",
  object: "checkout.session",
  url: "https://checkout.stripe.test/c/pay/cs_test_1",
  status: "open",
  payment_status: "unpaid",
  ...overrides,
});

describe("createCheckoutSession", () => {
  test("a one-time order is a payment session with synced and inline prices", async () => {
    const requests = answer("post", "/v1/checkout/sessions", aSession());
    const { gateway } = setup();
    const session = await gateway.createCheckoutSession(
      aCheckoutRequest([
        aLine({ gateway_price_id: "price_regular" }),
        aLine({ name: "Nova Plugin", variant: "extended", unit_amount: 1500, quantity: 2 }),
      ]),
    );
    expect(session).toEqual({
      session_id: "cs_test_1",
      url: "https://checkout.stripe.test/c/pay/cs_test_1",
      client_key: "pk_test_0123456789abcdefghij",
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]?.headers.get("authorization")).toBe(`Bearer ${API_KEY}`);
    expect(requests[0]?.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    // One session per order: asked again after a lost answer, Stripe replays the one it made.
    expect(requests[0]?.headers.get("idempotency-key")).toBe(`checkout-${ORDER}`);
    expect(requests[0]?.raw).toContain("line_items[1][price_data][currency]=usd");
    expect(requests[0]?.form).toEqual([
      ["mode", "payment"],
      ["client_reference_id", ORDER],
      ["customer_email", "buyer@example.com"],
      ["success_url", "https://shop.test/orders/done?x=1"],
      ["cancel_url", "https://shop.test/cart"],
      ["metadata[order_id]", ORDER],
      ["line_items[0][price]", "price_regular"],
      ["line_items[0][quantity]", "1"],
      ["line_items[1][price_data][currency]", "usd"],
      ["line_items[1][price_data][unit_amount]", "1500"],
      ["line_items[1][price_data][tax_behavior]", "exclusive"],
      ["line_items[1][price_data][product_data][name]", "Nova Plugin"],
      ["line_items[1][quantity]", "2"],
      ["payment_intent_data[metadata][order_id]", ORDER],
    ]);
  });

  test("a subscription order carries the longest trial and the order id on the subscription", async () => {
    const requests = answer("post", "/v1/checkout/sessions", aSession());
    const { gateway } = setup();
    await gateway.createCheckoutSession(
      aCheckoutRequest([
        aLine({
          name: "POS Monthly",
          variant: "monthly",
          billing_interval: "monthly",
          unit_amount: 2900,
          trial_days: 7,
        }),
        aLine({ variant: "yearly", billing_interval: "yearly", trial_days: 14, gateway_price_id: "price_yearly" }),
        aLine({ name: "Setup", unit_amount: 9900 }),
      ]),
    );
    expect(requests[0]?.form).toEqual([
      ["mode", "subscription"],
      ["client_reference_id", ORDER],
      ["customer_email", "buyer@example.com"],
      ["success_url", "https://shop.test/orders/done?x=1"],
      ["cancel_url", "https://shop.test/cart"],
      ["metadata[order_id]", ORDER],
      ["line_items[0][price_data][currency]", "usd"],
      ["line_items[0][price_data][unit_amount]", "2900"],
      ["line_items[0][price_data][tax_behavior]", "exclusive"],
      ["line_items[0][price_data][product_data][name]", "POS Monthly"],
      ["line_items[0][price_data][recurring][interval]", "month"],
      ["line_items[0][quantity]", "1"],
      ["line_items[1][price]", "price_yearly"],
      ["line_items[1][quantity]", "1"],
      ["line_items[2][price_data][currency]", "usd"],
      ["line_items[2][price_data][unit_amount]", "9900"],
      ["line_items[2][price_data][tax_behavior]", "exclusive"],
      ["line_items[2][price_data][product_data][name]", "Setup"],
      ["line_items[2][quantity]", "1"],
      ["subscription_data[trial_period_days]", "14"],
      ["subscription_data[metadata][order_id]", ORDER],
    ]);
  });

  test("a subscription without trials sends no trial_period_days", async () => {
    const requests = answer("post", "/v1/checkout/sessions", aSession());
    const { gateway } = setup();
    await gateway.createCheckoutSession(aCheckoutRequest([aLine({ variant: "yearly", billing_interval: "yearly" })]));
    const keys = requests[0]?.form.map(([key]) => key);
    expect(keys).toContain("subscription_data[metadata][order_id]");
    expect(keys).not.toContain("subscription_data[trial_period_days]");
  });

  test("without a client key none is returned", async () => {
    answer("post", "/v1/checkout/sessions", aSession());
    const { settings, gateway } = setup();
    settings.set("gateway_b", { client_key: null });
    expect(await gateway.createCheckoutSession(aCheckoutRequest([aLine()]))).not.toHaveProperty("client_key");
  });

  test("a session without a url is a bad response", async () => {
    answer("post", "/v1/checkout/sessions", aSession({ url: null }));
    const error = await failure(setup().gateway.createCheckoutSession(aCheckoutRequest([aLine()])));
    expect(error).toBeInstanceOf(UpstreamBadResponse);
  });
});

describe("refund", () => {
  const PAYMENT = { payment_id: "pi_1", order_id: ORDER, currency: "USD" };
  const listed = (id: string, reference: string) => ({
    id,
    object: "refund",
    status: "succeeded",
    amount: 900,
    metadata: { order_id: ORDER, refund_reference: reference },
  });

  test("looked up first, answers with the refund already made under the reference and makes none", async () => {
    const lists = answer("get", "/v1/refunds", {
      object: "list",
      url: "/v1/refunds",
      has_more: false,
      data: [listed("re_2", "rf_other"), listed("re_1", "rf_7")],
    });
    const posts = answer("post", "/v1/refunds", listed("re_9", "rf_7"));
    const result = await setup().gateway.refund(PAYMENT, 900, "rf_7", { lookUpFirst: true });
    expect(result).toEqual({ refund_id: "re_1", status: "succeeded" });
    expect(lists[0]?.query.get("payment_intent")).toBe("pi_1");
    expect(posts).toHaveLength(0);
  });

  test("looked up first, pages on with starting_after, and makes the refund when none is listed", async () => {
    const lists = answer("get", "/v1/refunds", () => {
      const first = lists.length === 1;
      return HttpResponse.json({
        object: "list",
        url: "/v1/refunds",
        has_more: first,
        data: [listed(first ? "re_a" : "re_b", "rf_other")],
      });
    });
    const posts = answer("post", "/v1/refunds", listed("re_new", "rf_7"));
    const result = await setup().gateway.refund(PAYMENT, 900, "rf_7", { lookUpFirst: true });
    expect(result).toEqual({ refund_id: "re_new", status: "succeeded" });
    expect(lists.map((request) => request.query.get("starting_after"))).toEqual([null, "re_a"]);
    expect(posts[0]?.headers.get("idempotency-key")).toBe("refund-rf_7");
  });

  test("a refund list that is not a list makes no refund", async () => {
    answer("get", "/v1/refunds", { object: "refund" });
    const posts = answer("post", "/v1/refunds", listed("re_new", "rf_7"));
    const error = await failure(setup().gateway.refund(PAYMENT, 900, "rf_7", { lookUpFirst: true }));
    expect(error.code).toBe("GATEWAY_BAD_RESPONSE");
    expect(posts).toHaveLength(0);
  });

  test("a full refund names the payment intent and the order, without an amount", async () => {
    const requests = answer("post", "/v1/refunds", { id: "re_1", object: "refund", status: "succeeded", amount: 4900 });
    const result = await setup().gateway.refund({ payment_id: "pi_1", order_id: ORDER, currency: "USD" }, null, "rf_1");
    expect(result).toEqual({ refund_id: "re_1", status: "succeeded" });
    expect(requests[0]?.form).toEqual([
      ["payment_intent", "pi_1"],
      ["metadata[order_id]", ORDER],
      ["metadata[refund_reference]", "rf_1"],
    ]);
  });

  test("carries an Idempotency-Key derived from the marketplace's refund id, the same on every retry", async () => {
    const requests = answer("post", "/v1/refunds", { id: "re_1", object: "refund", status: "succeeded", amount: 900 });
    const { gateway } = setup();
    const payment = { payment_id: "pi_1", order_id: ORDER, currency: "USD" };
    await gateway.refund(payment, 900, "rf_7");
    await gateway.refund(payment, 900, "rf_7");
    await gateway.refund(payment, 900, "rf_8");
    expect(requests.map((request) => request.headers.get("idempotency-key"))).toEqual([
      "refund-rf_7",
      "refund-rf_7",
      "refund-rf_8",
    ]);
  });

  test("a partial refund sends the amount", async () => {
    const requests = answer("post", "/v1/refunds", { id: "re_2", object: "refund", status: "pending", amount: 500 });
    const result = await setup().gateway.refund({ payment_id: "pi_1", order_id: ORDER, currency: "USD" }, 500, "rf_1");
    expect(result).toEqual({ refund_id: "re_2", status: "pending" });
    expect(requests[0]?.form).toEqual([
      ["payment_intent", "pi_1"],
      ["amount", "500"],
      ["metadata[order_id]", ORDER],
      ["metadata[refund_reference]", "rf_1"],
    ]);
  });

  test.each([
    ["requires_action", "pending"],
    ["failed", "failed"],
    ["canceled", "failed"],
  ])("Stripe status %s is %s", async (stripeStatus, status) => {
    answer("post", "/v1/refunds", { id: "re_3", object: "refund", status: stripeStatus });
    const result = await setup().gateway.refund({ payment_id: "pi_1", order_id: ORDER, currency: "USD" }, 100, "rf_1");
    expect(result.status).toBe(status as "pending" | "failed");
  });

  test("an unknown refund status is a bad response", async () => {
    answer("post", "/v1/refunds", { id: "re_4", object: "refund", status: "vanished" });
    const error = await failure(
      setup().gateway.refund({ payment_id: "pi_1", order_id: ORDER, currency: "USD" }, 1, "rf_1"),
    );
    expect(error).toBeInstanceOf(UpstreamBadResponse);
  });
});

describe("verifyWebhook", () => {
  const text = JSON.stringify({ id: "evt_1", object: "event", type: "invoice.paid" });
  const body = new TextEncoder().encode(text);
  const now = Date.parse("2026-03-01T12:00:00Z");

  test("reads the secrets and tolerance from settings and the header in any case", async () => {
    const settings = createStaticGatewaySettings();
    const gateway = createStripeGateway({ settings, now: () => now });
    const header = await signStripeWebhook(body, "whsec_test_0123456789abcdefghij", now - 60_000);
    await gateway.verifyWebhook({ rawBody: body, headers: { "Stripe-Signature": header } });
    settings.set("gateway_b", { webhook_tolerance_seconds: 30 });
    const error = await gateway
      .verifyWebhook({ rawBody: body, headers: { "stripe-signature": header } })
      .catch((e) => e);
    expect(error).toBeInstanceOf(InvalidWebhookSignature);
  });

  test("a request without the header is refused", async () => {
    const gateway = createStripeGateway({ settings: createStaticGatewaySettings(), now: () => now });
    await expect(gateway.verifyWebhook({ rawBody: body, headers: {} })).rejects.toBeInstanceOf(InvalidWebhookSignature);
  });
});

test("every request asks for the API version the official stripe package pins", async () => {
  const { default: Stripe } = await import("stripe");
  const requests = answer("get", "/v1/subscriptions/sub_1", aStripeSubscription());
  await setup().gateway.getSubscription("sub_1");
  expect(requests[0]?.headers.get("stripe-version")).toBe(Stripe.API_VERSION);
});

describe("resolvePayment", () => {
  test("a payment intent is the payment; nothing is asked", async () => {
    const pointer = { payment_id: "pi_1", payment_intent_id: "pi_1", charge_id: "ch_1" };
    expect(await setup().gateway.resolvePayment(pointer)).toEqual({
      payment_id: "pi_1",
      payment_intent_id: "pi_1",
      charge_id: "ch_1",
      invoice_id: null,
    });
  });

  test("an invoice alone is looked up with its payments expanded; its paid payment intent is the payment", async () => {
    const requests = answer("get", "/v1/invoices/in_1", {
      id: "in_1",
      object: "invoice",
      payments: {
        object: "list",
        data: [
          { status: "canceled", payment: { type: "payment_intent", payment_intent: "pi_old" } },
          { status: "paid", payment: { type: "payment_intent", payment_intent: { id: "pi_paid" } } },
        ],
      },
    });
    const resolved = await setup().gateway.resolvePayment({ payment_id: null, invoice_id: "in_1" });
    expect(resolved).toEqual({
      payment_id: "pi_paid",
      payment_intent_id: "pi_paid",
      charge_id: null,
      invoice_id: "in_1",
    });
    expect(requests[0]?.query.getAll("expand[]")).toEqual(["payments"]);
  });

  test("an invoice with nothing paid (a trial) stands for its own payment", async () => {
    answer("get", "/v1/invoices/in_0", { id: "in_0", object: "invoice", payments: { object: "list", data: [] } });
    expect(await setup().gateway.resolvePayment({ payment_id: null, invoice_id: "in_0" })).toMatchObject({
      payment_id: "in_0",
      invoice_id: "in_0",
    });
  });

  test("a charge alone is looked up for its payment intent", async () => {
    answer("get", "/v1/charges/ch_9", { id: "ch_9", object: "charge", payment_intent: "pi_9" });
    expect(await setup().gateway.resolvePayment({ payment_id: null, charge_id: "ch_9" })).toEqual({
      payment_id: "pi_9",
      payment_intent_id: "pi_9",
      charge_id: "ch_9",
      invoice_id: null,
    });
  });
});
