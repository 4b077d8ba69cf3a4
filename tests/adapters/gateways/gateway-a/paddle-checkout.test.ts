import { describe, expect, test } from "bun:test";
import { http } from "msw";
import { createPaddleGateway } from "../../../../adapters/gateways/gateway-a/paddle-client.ts";
import type { CheckoutLine, CheckoutSessionRequest } from "../../../../application/payments/ports.ts";
import { UpstreamBadResponse, UpstreamRejected } from "../../../../application/shared/errors.ts";
import { createStaticGatewaySettings } from "../../../support/fakes/static-gateway-settings.ts";
import {
  API_KEY,
  aCustomer,
  aTransaction,
  BASE,
  failure,
  knownCustomer,
  ok,
  paddleError,
  useMockPaddle,
} from "./paddle-fixtures.ts";

const server = useMockPaddle();
const settings = createStaticGatewaySettings();
const gateway = createPaddleGateway({ settings });

const aLine = (overrides: Partial<CheckoutLine> = {}): CheckoutLine => ({
  order_item_id: "item_1",
  product_id: "mp_1",
  name: "POS Standard",
  variant: "regular",
  billing_interval: null,
  unit_amount: 4900,
  quantity: 1,
  trial_days: null,
  gateway_price_id: null,
  ...overrides,
});

const aCheckout = (lines: CheckoutLine[]): CheckoutSessionRequest => ({
  tax_behavior: "exclusive",
  order_id: "ord_1",
  currency: "usd",
  lines,
  customer: { id: "cus_1", email: "owner@example.com", name: "Shop Owner" },
  success_url: "https://shop.example.test/orders/ord_1",
  cancel_url: "https://shop.example.test/cart",
});

describe("createCheckoutSession", () => {
  test("posts a transaction with catalog and inline prices and returns the checkout url", async () => {
    let seen: { body: unknown; authorization: string | null; contentType: string | null } | undefined;
    server.use(
      knownCustomer(),
      http.post(`${BASE}/transactions`, async ({ request }) => {
        seen = {
          body: await request.json(),
          authorization: request.headers.get("authorization"),
          contentType: request.headers.get("content-type"),
        };
        return ok(aTransaction({ id: "txn_42" }), {}, 201);
      }),
    );
    const session = await gateway.createCheckoutSession(
      aCheckout([
        aLine({ gateway_price_id: "pri_synced", quantity: 2 }),
        aLine({
          name: "POS Cloud",
          variant: "monthly",
          billing_interval: "monthly",
          unit_amount: 2900,
          trial_days: 14,
        }),
        aLine({ name: "POS Cloud", variant: "yearly", billing_interval: "yearly", unit_amount: 29000, trial_days: 0 }),
        aLine({ variant: "extended", trial_days: 7 }),
      ]),
    );

    expect(session).toEqual({
      session_id: "txn_42",
      url: "https://pay.example.test/checkout?_ptxn=txn_01",
      client_key: "test_client_token_0123",
    });
    expect(seen?.authorization).toBe(`Bearer ${API_KEY}`);
    expect(seen?.contentType).toBe("application/json");
    const inline = (name: string, variant: string, amount: string, billing: unknown, trial: unknown) => ({
      price: {
        description: `${name} (${variant})`,
        name,
        product: { name, tax_category: "standard" },
        unit_price: { amount, currency_code: "USD" },
        tax_mode: "external",
        billing_cycle: billing,
        trial_period: trial,
      },
      quantity: 1,
    });
    expect(seen?.body).toEqual({
      items: [
        { price_id: "pri_synced", quantity: 2 },
        inline("POS Cloud", "monthly", "2900", { interval: "month", frequency: 1 }, { interval: "day", frequency: 14 }),
        inline("POS Cloud", "yearly", "29000", { interval: "year", frequency: 1 }, null),
        inline("POS Standard", "extended", "4900", null, null),
      ],
      currency_code: "USD",
      custom_data: { order_id: "ord_1" },
      customer_id: "ctm_01owner",
      checkout: { url: null },
    });
  });

  test("leaves client_key out when the environment has none", async () => {
    const bare = createPaddleGateway({ settings: createStaticGatewaySettings({ gateway_a: { client_key: null } }) });
    server.use(
      knownCustomer(),
      http.post(`${BASE}/transactions`, () => ok(aTransaction())),
    );
    expect(await bare.createCheckoutSession(aCheckout([aLine()]))).not.toHaveProperty("client_key");
  });

  test("a transaction without checkout.url is a bad response", async () => {
    server.use(
      knownCustomer(),
      http.post(`${BASE}/transactions`, () => ok(aTransaction({ checkout: { url: null } }))),
    );
    expect(await failure(gateway.createCheckoutSession(aCheckout([aLine()])))).toBeInstanceOf(UpstreamBadResponse);
  });

  test("an environment switch takes effect on the next call", async () => {
    const switching = createStaticGatewaySettings();
    const live = createPaddleGateway({ settings: switching });
    switching.set("gateway_a", { environment: "live", base_url: "https://api.paddle.test/", api_key: "pdl_live_key" });
    let authorization = null as string | null;
    server.use(
      http.get("https://api.paddle.test/customers", () => ok([aCustomer()])),
      http.post("https://api.paddle.test/transactions", ({ request }) => {
        authorization = request.headers.get("authorization");
        return ok(aTransaction());
      }),
    );
    await live.createCheckoutSession(aCheckout([aLine()]));
    expect(authorization).toBe("Bearer pdl_live_key");
  });
});

describe("createCheckoutSession names the Paddle customer as Paddle's API does", () => {
  const transactionFor = (seen: { customerId?: unknown }) =>
    http.post(`${BASE}/transactions`, async ({ request }) => {
      seen.customerId = ((await request.json()) as { customer_id?: unknown }).customer_id;
      return ok(aTransaction(), {}, 201);
    });

  test("an existing customer is found by email and named by id; nothing is created", async () => {
    const seen: { customerId?: unknown; query?: string | null } = {};
    server.use(
      http.get(`${BASE}/customers`, ({ request }) => {
        seen.query = new URL(request.url).searchParams.get("email");
        return ok([aCustomer({ id: "ctm_01archived", status: "archived" }), aCustomer({ id: "ctm_01found" })]);
      }),
      transactionFor(seen),
    );
    await gateway.createCheckoutSession(aCheckout([aLine()]));
    expect(seen).toEqual({ query: "owner@example.com", customerId: "ctm_01found" });
  });

  test("a buyer Paddle does not know yet is created with email and name first", async () => {
    const seen: { customerId?: unknown; created?: unknown } = {};
    server.use(
      http.get(`${BASE}/customers`, () => ok([])),
      http.post(`${BASE}/customers`, async ({ request }) => {
        seen.created = await request.json();
        return ok(aCustomer({ id: "ctm_01new" }), {}, 201);
      }),
      transactionFor(seen),
    );
    await gateway.createCheckoutSession(aCheckout([aLine()]));
    expect(seen).toEqual({ created: { email: "owner@example.com", name: "Shop Owner" }, customerId: "ctm_01new" });
  });

  test("a customer created meanwhile (409 customer_already_exists) is named by the id in Paddle's detail", async () => {
    const seen: { customerId?: unknown } = {};
    server.use(
      http.get(`${BASE}/customers`, () => ok([])),
      http.post(`${BASE}/customers`, () =>
        paddleError(409, "customer_already_exists", "customer email conflicts with customer of id ctm_01raced"),
      ),
      transactionFor(seen),
    );
    await gateway.createCheckoutSession(aCheckout([aLine()]));
    expect(seen.customerId).toBe("ctm_01raced");
  });

  test("a conflict that names no customer, or another refusal, fails the checkout before any transaction", async () => {
    for (const refusal of [
      () => paddleError(409, "customer_already_exists", "conflict"),
      () => paddleError(409, "conflict", "customer email conflicts with customer of id ctm_01other"),
      () => paddleError(400, "invalid_field", "Request does not pass validation."),
    ]) {
      server.use(
        http.get(`${BASE}/customers`, () => ok([])),
        http.post(`${BASE}/customers`, refusal),
      );
      // No transaction handler: msw fails the test if one were posted.
      expect(await failure(gateway.createCheckoutSession(aCheckout([aLine()])))).toBeInstanceOf(UpstreamRejected);
    }
  });

  test("a customer without a Paddle id, or a list that is not a list, is a bad response", async () => {
    for (const answer of [() => ok({ id: "ctm_01x" }), () => ok([{ email: "owner@example.com", status: "active" }])]) {
      server.use(http.get(`${BASE}/customers`, answer));
      expect(await failure(gateway.createCheckoutSession(aCheckout([aLine()])))).toBeInstanceOf(UpstreamBadResponse);
    }
    server.use(
      http.get(`${BASE}/customers`, () => ok([])),
      http.post(`${BASE}/customers`, () => ok({ email: "owner@example.com" }, {}, 201)),
    );
    expect(await failure(gateway.createCheckoutSession(aCheckout([aLine()])))).toBeInstanceOf(UpstreamBadResponse);
  });
});
