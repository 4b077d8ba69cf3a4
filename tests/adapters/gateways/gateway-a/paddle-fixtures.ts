import { afterAll, afterEach, beforeAll } from "bun:test";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";

/** The base URL and key of `createStaticGatewaySettings()` for gateway_a. */
export const BASE = "https://sandbox-api.paddle.test";
export const API_KEY = "pdl_sdbx_apikey_test_0123456789";

export const ok = (data: unknown, meta: Record<string, unknown> = {}, status = 200) =>
  HttpResponse.json({ data, meta: { request_id: "req_01", ...meta } }, { status });

/** One page of `GET /adjustments` holding `adjustments`, the last page unless `next` is given. */
export const adjustmentPage = (adjustments: unknown[], next: string | null = null) =>
  ok(adjustments, {
    pagination: {
      per_page: 50,
      next: next ?? `${BASE}/adjustments?after=none`,
      has_more: next !== null,
      estimated_total: 1,
    },
  });

/** A transaction with no refund adjustments yet. */
/** A product without prices yet: what a price's creation looks up first. */
export const noPrices = () => http.get(`${BASE}/prices`, () => ok([]));

export const noAdjustments = () => http.get(`${BASE}/adjustments`, () => adjustmentPage([]));

export const paddleError = (status: number, code: string, detail = "Refused.") =>
  HttpResponse.json(
    {
      error: { type: "request_error", code, detail, documentation_url: "https://developer.paddle.com/errors" },
      meta: { request_id: "req_01" },
    },
    { status },
  );

export const aProduct = (overrides: Record<string, unknown> = {}) => ({
  id: "pro_01",
  name: "POS Standard",
  description: null,
  tax_category: "standard",
  status: "active",
  custom_data: { marketplace_product_id: "mp_1" },
  created_at: "2026-01-01T00:00:00Z",
  updated_at: "2026-01-01T00:00:00Z",
  ...overrides,
});

export const aPrice = (overrides: Record<string, unknown> = {}) => ({
  id: "pri_01",
  product_id: "pro_01",
  description: "monthly",
  unit_price: { amount: "2900", currency_code: "USD" },
  billing_cycle: { interval: "month", frequency: 1 },
  trial_period: null,
  status: "active",
  custom_data: { marketplace_product_id: "mp_1", variant: "monthly" },
  ...overrides,
});

export const aTransaction = (overrides: Record<string, unknown> = {}) => ({
  id: "txn_01",
  status: "ready",
  origin: "api",
  custom_data: { order_id: "ord_1" },
  currency_code: "USD",
  subscription_id: null,
  billing_period: null,
  details: {
    totals: { subtotal: "2900", tax: "0", total: "2900", grand_total: "2900" },
    line_items: [{ id: "txnitm_01", price_id: "pri_01", quantity: 1, totals: { total: "2900" } }],
  },
  checkout: { url: "https://pay.example.test/checkout?_ptxn=txn_01" },
  ...overrides,
});

export const aCustomer = (overrides: Record<string, unknown> = {}) => ({
  id: "ctm_01owner",
  name: "Shop Owner",
  email: "owner@example.com",
  marketing_consent: false,
  status: "active",
  custom_data: null,
  locale: "en",
  created_at: "2026-01-01T00:00:00Z",
  updated_at: "2026-01-01T00:00:00Z",
  import_meta: null,
  ...overrides,
});

/** `GET /customers?email=` finding the checkout's buyer, `ctm_01owner`. */
export const knownCustomer = () => http.get(`${BASE}/customers`, () => ok([aCustomer()]));

export const aSubscription = (overrides: Record<string, unknown> = {}) => ({
  id: "sub_01",
  status: "active",
  customer_id: "ctm_01owner",
  custom_data: { order_id: "ord_1" },
  current_billing_period: { starts_at: "2026-01-01T00:00:00Z", ends_at: "2026-02-01T00:00:00Z" },
  next_billed_at: "2026-02-01T00:00:00Z",
  canceled_at: null,
  scheduled_change: null,
  billing_cycle: { interval: "month", frequency: 1 },
  items: [{ price: { id: "pri_01", product_id: "pro_01" }, quantity: 1 }],
  ...overrides,
});

export async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

/** An msw server for this test file that fails any request no handler expects. */
export function useMockPaddle() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}
