import { describe, expect, test } from "bun:test";
import { delay, HttpResponse, http, passthrough } from "msw";
import { createPaddleGateway } from "../../../../adapters/gateways/gateway-a/paddle-client.ts";
import type { PlanChange } from "../../../../application/payments/ports.ts";
import {
  UpstreamBadResponse,
  UpstreamRateLimited,
  UpstreamRejected,
  UpstreamServerError,
  UpstreamTimeout,
  UpstreamUnreachable,
} from "../../../../application/shared/errors.ts";
import { freePort } from "../../../../scripts/lib/postgres-cluster.ts";
import { createStaticGatewaySettings } from "../../../support/fakes/static-gateway-settings.ts";
import { aSubscription, BASE, failure, ok, paddleError, useMockPaddle } from "./paddle-fixtures.ts";

const server = useMockPaddle();
const gatewayWith = (patch: Parameters<ReturnType<typeof createStaticGatewaySettings>["set"]>[1] = {}) => {
  const settings = createStaticGatewaySettings();
  settings.set("gateway_a", patch);
  return createPaddleGateway({ settings });
};
const gateway = gatewayWith();

const toYearly: PlanChange = {
  subscription_id: "sub_01",
  order_id: "ord_1",
  product_name: "POS",
  variant: "yearly",
  unit_amount: 31000,
  currency: "USD",
  tax_behavior: "exclusive",
  gateway_price_id: null,
  timing: "now",
};

const totals = (grand: string) => ({ details: { totals: { grand_total: grand } } });
const aPreview = (overrides: Record<string, unknown> = {}) => ({
  currency_code: "USD",
  next_billed_at: "2027-01-10T00:00:00Z",
  immediate_transaction: totals("29000"),
  recurring_transaction_details: { totals: { grand_total: "31000" } },
  ...overrides,
});

/** The current subscription, and the body of each PATCH to `path`. */
function patches(path: string, answer: () => Response) {
  const bodies: unknown[] = [];
  server.use(
    http.get(`${BASE}/subscriptions/sub_01`, () => ok(aSubscription())),
    http.patch(`${BASE}${path}`, async ({ request }) => {
      bodies.push(await request.json());
      return answer();
    }),
  );
  return bodies;
}

const inlineYearly = {
  price: {
    description: "POS (yearly)",
    name: "POS",
    product_id: "pro_01",
    unit_price: { amount: "31000", currency_code: "USD" },
    billing_cycle: { interval: "year", frequency: 1 },
    tax_mode: "external",
  },
  quantity: 1,
};

describe("previewing a plan change at Paddle", () => {
  test("now: the new item inline on the subscription's product, prorated_immediately; due now and each renewal", async () => {
    const bodies = patches("/subscriptions/sub_01/preview", () => ok(aPreview()));
    expect(await gateway.previewPlanChange(toYearly)).toEqual({
      due_now: 29000,
      next_amount: 31000,
      next_billing_at: "2027-01-10T00:00:00Z",
      currency: "USD",
    });
    expect(bodies).toEqual([
      { items: [inlineYearly], proration_billing_mode: "prorated_immediately", on_payment_failure: "prevent_change" },
    ]);
  });

  test("at the period end: a synced price, do_not_bill, and the next billing kept at the end of the paid period", async () => {
    const bodies = patches("/subscriptions/sub_01/preview", () => ok(aPreview({ immediate_transaction: null })));
    const monthly = {
      ...toYearly,
      variant: "monthly" as const,
      gateway_price_id: "pri_monthly",
      timing: "period_end" as const,
    };
    expect(await gateway.previewPlanChange(monthly)).toMatchObject({ due_now: 0, next_amount: 31000 });
    expect(bodies).toEqual([
      {
        items: [{ price_id: "pri_monthly", quantity: 1 }],
        proration_billing_mode: "do_not_bill",
        next_billed_at: "2026-02-01T00:00:00Z",
      },
    ]);
  });

  test("a preview without recurring details or with a total that is no amount is a bad answer", async () => {
    patches("/subscriptions/sub_01/preview", () => ok(aPreview({ recurring_transaction_details: null })));
    expect(await failure(gateway.previewPlanChange(toYearly))).toBeInstanceOf(UpstreamBadResponse);
    server.resetHandlers();
    patches("/subscriptions/sub_01/preview", () => ok(aPreview({ immediate_transaction: totals("-5") })));
    expect(await failure(gateway.previewPlanChange(toYearly))).toBeInstanceOf(UpstreamBadResponse);
  });
});

describe("changing the plan at Paddle", () => {
  test("now: PATCH with the items, answered with the subscription as it bills now", async () => {
    const bodies = patches("/subscriptions/sub_01", () =>
      ok(aSubscription({ billing_cycle: { interval: "year", frequency: 1 }, items: [{ price: { id: "pri_02" } }] })),
    );
    expect(await gateway.changePlan(toYearly)).toMatchObject({ price_id: "pri_02", billing_interval: "yearly" });
    expect(bodies).toHaveLength(1);
  });

  test("a subscription without a billing period cannot wait for its end", async () => {
    server.use(http.get(`${BASE}/subscriptions/sub_01`, () => ok(aSubscription({ current_billing_period: null }))));
    expect(await failure(gateway.changePlan({ ...toYearly, timing: "period_end" }))).toBeInstanceOf(
      UpstreamBadResponse,
    );
  });

  test("nothing waits at Paddle: releasing a change only reads the subscription", async () => {
    server.use(http.get(`${BASE}/subscriptions/sub_01`, () => ok(aSubscription())));
    expect(await gateway.releasePlanChange("sub_01")).toMatchObject({ subscription_id: "sub_01" });
  });
});

describe("a plan change's call fails with a typed error", () => {
  test("a refused change (past due, locked before a renewal) is a refusal", async () => {
    patches("/subscriptions/sub_01", () => paddleError(400, "subscription_locked_renewal"));
    const error = await failure(gateway.changePlan(toYearly));
    expect(error).toBeInstanceOf(UpstreamRejected);
    expect(error).toMatchObject({ upstreamCode: "subscription_locked_renewal", transient: false });
  });

  test("429 is rate limited, 5xx a server error", async () => {
    patches("/subscriptions/sub_01/preview", () =>
      HttpResponse.json({ error: { code: "too_many_requests" } }, { status: 429, headers: { "Retry-After": "2" } }),
    );
    expect(await failure(gateway.previewPlanChange(toYearly))).toBeInstanceOf(UpstreamRateLimited);
    server.resetHandlers();
    patches("/subscriptions/sub_01/preview", () => paddleError(503, "internal_error"));
    expect(await failure(gateway.previewPlanChange(toYearly))).toBeInstanceOf(UpstreamServerError);
  });

  test("a slow answer is a timeout, garbage a bad response, a refused connection unreachable", async () => {
    patches("/subscriptions/sub_01/preview", () => ok(aPreview()));
    server.use(
      http.patch(`${BASE}/subscriptions/sub_01/preview`, async () => {
        await delay(1000);
        return ok(aPreview());
      }),
    );
    expect(await failure(gatewayWith({ timeout_seconds: 0.2 }).previewPlanChange(toYearly))).toBeInstanceOf(
      UpstreamTimeout,
    );
    server.resetHandlers();
    patches("/subscriptions/sub_01", () => new HttpResponse("<html>", { status: 200 }));
    expect(await failure(gateway.changePlan(toYearly))).toBeInstanceOf(UpstreamBadResponse);
    const closed = `http://127.0.0.1:${await freePort()}`;
    server.use(http.all(`${closed}/*`, () => passthrough()));
    expect(await failure(gatewayWith({ base_url: closed }).changePlan(toYearly))).toBeInstanceOf(UpstreamUnreachable);
  });
});
