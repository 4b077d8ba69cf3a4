import { describe, expect, test } from "bun:test";
import { delay, HttpResponse, http } from "msw";
import { createPaddleGateway } from "../../../../adapters/gateways/gateway-a/paddle-client.ts";
import {
  UpstreamBadResponse,
  UpstreamRateLimited,
  UpstreamRejected,
  UpstreamServerError,
  UpstreamTimeout,
  UpstreamUnreachable,
} from "../../../../application/shared/errors.ts";
import { createStaticGatewaySettings } from "../../../support/fakes/static-gateway-settings.ts";
import {
  aTransaction,
  BASE,
  failure,
  knownCustomer,
  noAdjustments,
  noPrices,
  ok,
  paddleError,
  useMockPaddle,
} from "./paddle-fixtures.ts";

const server = useMockPaddle();

// Fractions of a second keep the time-out cases quick; callUpstream turns them into milliseconds.
const gateway = createPaddleGateway({ settings: createStaticGatewaySettings({ gateway_a: { timeout_seconds: 0.2 } }) });
type Gateway = typeof gateway;

const payment = { payment_id: "txn_01", order_id: "ord_1", currency: "USD" };
const price = {
  id: "pri_01",
  product_id: "pro_01",
  amount: 2900,
  currency: "USD",
  billing_interval: null,
  variant: "regular",
  active: true,
  tax_behavior: null,
} as const;

interface Interaction {
  readonly method: "get" | "post" | "patch";
  readonly path: string;
  readonly call: (g: Gateway) => Promise<unknown>;
  /** Calls that must succeed before the failing one. */
  readonly before?: () => void;
}

const checkout = (g: Gateway) =>
  g.createCheckoutSession({
    tax_behavior: "exclusive",
    order_id: "ord_1",
    currency: "USD",
    lines: [],
    customer: { id: "c", email: "a@example.com", name: "A" },
    success_url: "https://shop.test/ok",
    cancel_url: "https://shop.test/cancel",
  });

const INTERACTIONS: Record<string, Interaction> = {
  "createCheckoutSession (looking the customer up)": { method: "get", path: "/customers", call: checkout },
  "createCheckoutSession (creating the customer)": {
    method: "post",
    path: "/customers",
    call: checkout,
    before: () => server.use(http.get(`${BASE}/customers`, () => ok([]))),
  },
  "createCheckoutSession (posting the transaction)": {
    method: "post",
    path: "/transactions",
    call: checkout,
    before: () => server.use(knownCustomer()),
  },
  "refund (looking up an adjustment made before)": {
    method: "get",
    path: "/adjustments",
    call: (g) => g.refund(payment, null, "rf_1"),
  },
  "refund (full)": {
    method: "post",
    path: "/adjustments",
    call: (g) => g.refund(payment, null, "rf_1"),
    before: () => server.use(noAdjustments()),
  },
  "refund (partial, reading the transaction)": {
    method: "get",
    path: "/transactions/txn_01",
    call: (g) => g.refund(payment, 500, "rf_1"),
    before: () => server.use(noAdjustments()),
  },
  "refund (partial, posting the adjustment)": {
    method: "post",
    path: "/adjustments",
    call: (g) => g.refund(payment, 500, "rf_1"),
    before: () =>
      server.use(
        noAdjustments(),
        http.get(`${BASE}/transactions/txn_01`, () => ok(aTransaction())),
      ),
  },
  getSubscription: { method: "get", path: "/subscriptions/sub_01", call: (g) => g.getSubscription("sub_01") },
  cancelSubscription: {
    method: "post",
    path: "/subscriptions/sub_01/cancel",
    call: (g) => g.cancelSubscription("sub_01"),
  },
  scheduleCancellation: {
    method: "post",
    path: "/subscriptions/sub_01/cancel",
    call: (g) => g.scheduleCancellation("sub_01"),
  },
  resumeSubscription: {
    method: "patch",
    path: "/subscriptions/sub_01",
    call: (g) => g.resumeSubscription("sub_01"),
  },
  findProductByMarketplaceId: { method: "get", path: "/products", call: (g) => g.findProductByMarketplaceId("mp_1") },
  getProduct: { method: "get", path: "/products/pro_01", call: (g) => g.getProduct("pro_01") },
  createProduct: {
    method: "post",
    path: "/products",
    call: (g) => g.createProduct({ marketplace_product_id: "mp_1", name: "POS", description: "" }),
  },
  getPrice: { method: "get", path: "/prices/pri_01", call: (g) => g.getPrice("pri_01") },
  createPrice: {
    method: "post",
    path: "/prices",
    before: () => server.use(noPrices()),
    call: (g) =>
      g.createPrice({
        product_id: "pro_01",
        marketplace_product_id: "mp_1",
        variant: "regular",
        amount: 2900,
        currency: "USD",
        billing_interval: null,
        trial_days: null,
        tax_behavior: "exclusive",
      }),
  },
  updatePrice: {
    method: "patch",
    path: "/prices/pri_01",
    call: (g) => g.updatePrice(price, { amount: 3900, currency: "USD", tax_behavior: "exclusive" }),
  },
};

const FAILURES: Record<string, { answer: () => Response | Promise<Response>; expected: object; type: unknown }> = {
  "401": {
    answer: () => paddleError(401, "authentication_malformed"),
    type: UpstreamRejected,
    expected: { code: "GATEWAY_AUTH_FAILED", status: 401, upstreamCode: "authentication_malformed", transient: false },
  },
  "429 with Retry-After": {
    answer: () => new HttpResponse(null, { status: 429, headers: { "retry-after": "7" } }),
    type: UpstreamRateLimited,
    expected: { retryAfterMs: 7000, transient: true },
  },
  "500": {
    answer: () => paddleError(500, "internal_error"),
    type: UpstreamServerError,
    expected: { status: 500, transient: true },
  },
  "a time-out": {
    answer: async () => {
      await delay(1000);
      return ok({});
    },
    type: UpstreamTimeout,
    expected: { code: "GATEWAY_TIMEOUT" },
  },
  "a refused connection": {
    answer: () => HttpResponse.error(),
    type: UpstreamUnreachable,
    expected: { code: "GATEWAY_UNREACHABLE", transient: true },
  },
  "a malformed body": {
    answer: () => new HttpResponse("<html>maintenance</html>", { status: 200 }),
    type: UpstreamBadResponse,
    expected: { code: "GATEWAY_BAD_RESPONSE" },
  },
  "JSON without the data envelope": {
    answer: () => HttpResponse.json({ id: "txn_01" }),
    type: UpstreamBadResponse,
    expected: { code: "GATEWAY_BAD_RESPONSE" },
  },
  "JSON missing required fields": {
    answer: () => ok({ status: "active" }),
    type: UpstreamBadResponse,
    expected: { code: "GATEWAY_BAD_RESPONSE" },
  },
};

const cases = Object.entries(INTERACTIONS).flatMap(([operation, interaction]) =>
  Object.entries(FAILURES).map(([failureName, failing]) => [operation, failureName, interaction, failing] as const),
);

describe("every Paddle call fails with a typed error", () => {
  test.each(cases)("%s: %s", async (_, __, interaction, failing) => {
    interaction.before?.();
    server.use(http[interaction.method](`${BASE}${interaction.path}`, failing.answer));
    const error = await failure(interaction.call(gateway));
    expect(error).toBeInstanceOf(failing.type as new (...args: never[]) => unknown);
    expect(error).toMatchObject(failing.expected);
  });
});
