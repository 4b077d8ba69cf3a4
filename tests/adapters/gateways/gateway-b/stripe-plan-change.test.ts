import { describe, expect, test } from "bun:test";
import { delay, HttpResponse, http, passthrough } from "msw";
import { createStripeGateway } from "../../../../adapters/gateways/gateway-b/stripe-client.ts";
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
import { failure, mockStripeApi, stripeError } from "./stripe-api-mock.ts";
import { aStripeSubscription } from "./stripe-objects.ts";

const { server, answer } = mockStripeApi();
const gatewayWith = (patch: Parameters<ReturnType<typeof createStaticGatewaySettings>["set"]>[1] = {}) => {
  const settings = createStaticGatewaySettings();
  settings.set("gateway_b", patch);
  return createStripeGateway({ settings });
};
const gateway = gatewayWith();

const toYearly: PlanChange = {
  subscription_id: "sub_1",
  order_id: "ord_1",
  product_name: "POS",
  variant: "yearly",
  unit_amount: 31000,
  currency: "USD",
  tax_behavior: "exclusive",
  gateway_price_id: null,
  timing: "now",
};

const line = (amount: number, proration: boolean, period: { start: number; end: number }, tax = 0) => ({
  amount,
  period,
  parent: { subscription_item_details: { proration } },
  taxes: tax === 0 ? [] : [{ amount: tax, tax_behavior: "exclusive" }],
});

const aPreview = (overrides: Record<string, unknown> = {}) => ({
  id: "upcoming_in_1",
  object: "invoice",
  currency: "usd",
  amount_due: 29000,
  lines: {
    data: [
      line(-2000, true, { start: 1772366400, end: 1775044800 }),
      line(31000, false, { start: 1772366400, end: 1803902400 }),
    ],
  },
  ...overrides,
});

describe("previewing a plan change at Stripe", () => {
  test("now: create_preview for the item with the new price inline, always_invoice; due now and each renewal from its lines", async () => {
    answer("get", "/v1/subscriptions/sub_1", aStripeSubscription({ status: "active" }));
    const previews = answer("post", "/v1/invoices/create_preview", aPreview());
    expect(await gateway.previewPlanChange(toYearly)).toEqual({
      due_now: 29000,
      next_amount: 31000,
      next_billing_at: "2027-03-01T12:00:00.000Z",
      currency: "USD",
    });
    expect(previews[0]?.form).toEqual([
      ["subscription", "sub_1"],
      ["subscription_details[items][0][id]", "si_1"],
      ["subscription_details[items][0][price_data][currency]", "usd"],
      ["subscription_details[items][0][price_data][product]", "prod_1"],
      ["subscription_details[items][0][price_data][unit_amount]", "31000"],
      ["subscription_details[items][0][price_data][recurring][interval]", "year"],
      ["subscription_details[items][0][price_data][tax_behavior]", "exclusive"],
      ["subscription_details[items][0][quantity]", "1"],
      ["subscription_details[proration_behavior]", "always_invoice"],
    ]);
  });

  test("a synced price is named by id, and the tax added on top counts in each renewal", async () => {
    answer("get", "/v1/subscriptions/sub_1", aStripeSubscription({ status: "active" }));
    const preview = aPreview({
      lines: { data: [line(31000, false, { start: 1772366400, end: 1803902400 }, 6200)] },
      amount_due: 37200,
    });
    const previews = answer("post", "/v1/invoices/create_preview", preview);
    const answered = await gateway.previewPlanChange({ ...toYearly, gateway_price_id: "price_yearly" });
    expect(answered).toMatchObject({ due_now: 37200, next_amount: 37200 });
    expect(previews[0]?.form).toContainEqual(["subscription_details[items][0][price]", "price_yearly"]);
  });

  test("at the period end: the schedule's phases previewed for the customer; nothing is due now", async () => {
    answer("get", "/v1/subscriptions/sub_1", aStripeSubscription({ status: "active" }));
    const previews = answer(
      "post",
      "/v1/invoices/create_preview",
      aPreview({ amount_due: 3100, lines: { data: [line(3100, false, { start: 1775044800, end: 1777636800 })] } }),
    );
    const answered = await gateway.previewPlanChange({
      ...toYearly,
      variant: "monthly",
      unit_amount: 3100,
      timing: "period_end",
    });
    expect(answered).toEqual({
      due_now: 0,
      next_amount: 3100,
      next_billing_at: "2026-04-01T12:00:00.000Z",
      currency: "USD",
    });
    expect(previews[0]?.form).toEqual(
      expect.arrayContaining([
        ["customer", "cus_1"],
        ["schedule_details[end_behavior]", "release"],
        ["schedule_details[phases][0][items][0][price]", "price_1"],
        ["schedule_details[phases][0][start_date]", "1772366400"],
        ["schedule_details[phases][0][end_date]", "1775044800"],
        ["schedule_details[phases][1][items][0][price_data][recurring][interval]", "month"],
        ["schedule_details[phases][1][duration][interval]", "month"],
        ["schedule_details[phases][1][proration_behavior]", "none"],
      ]),
    );
  });

  test("a preview billing nothing at the new price is a bad answer", async () => {
    answer("get", "/v1/subscriptions/sub_1", aStripeSubscription({ status: "active" }));
    answer(
      "post",
      "/v1/invoices/create_preview",
      aPreview({ lines: { data: [line(-2000, true, { start: 1, end: 2 })] } }),
    );
    expect(await failure(gateway.previewPlanChange(toYearly))).toBeInstanceOf(UpstreamBadResponse);
  });
});

describe("changing the plan at Stripe", () => {
  test("now: the item's price replaced, billed at once, refused outright when the card is; each change keyed apart", async () => {
    answer("get", "/v1/subscriptions/sub_1", aStripeSubscription({ status: "active" }));
    const updates = answer("post", "/v1/subscriptions/sub_1", aStripeSubscription({ status: "active" }));
    await gateway.changePlan(toYearly);
    expect(updates[0]?.form).toEqual([
      ["items[0][id]", "si_1"],
      ["items[0][price_data][currency]", "usd"],
      ["items[0][price_data][product]", "prod_1"],
      ["items[0][price_data][unit_amount]", "31000"],
      ["items[0][price_data][recurring][interval]", "year"],
      ["items[0][price_data][tax_behavior]", "exclusive"],
      ["items[0][quantity]", "1"],
      ["proration_behavior", "always_invoice"],
      ["payment_behavior", "error_if_incomplete"],
    ]);
    expect(updates[0]?.headers.get("idempotency-key")).toMatch(/^plan-sub_1-yearly-now-[0-9a-f-]{36}$/);
  });

  test("now, while a schedule waits: the schedule is released first", async () => {
    answer("get", "/v1/subscriptions/sub_1", aStripeSubscription({ status: "active", schedule: "sub_sched_1" }));
    const released = answer("post", "/v1/subscription_schedules/sub_sched_1/release", { id: "sub_sched_1" });
    const updates = answer("post", "/v1/subscriptions/sub_1", aStripeSubscription({ status: "active" }));
    await gateway.changePlan(toYearly);
    expect(released).toHaveLength(1);
    expect(updates).toHaveLength(1);
  });

  test("at the period end: a schedule from the subscription, then its two phases", async () => {
    answer("get", "/v1/subscriptions/sub_1", aStripeSubscription({ status: "active" }));
    const created = answer("post", "/v1/subscription_schedules", {
      id: "sub_sched_1",
      object: "subscription_schedule",
    });
    const phased = answer("post", "/v1/subscription_schedules/sub_sched_1", { id: "sub_sched_1" });
    const monthly = { ...toYearly, variant: "monthly" as const, unit_amount: 3100, timing: "period_end" as const };
    expect(await gateway.changePlan(monthly)).toMatchObject({ subscription_id: "sub_1", billing_interval: "monthly" });
    expect(created[0]?.form).toEqual([["from_subscription", "sub_1"]]);
    expect(phased[0]?.form).toEqual(
      expect.arrayContaining([
        ["end_behavior", "release"],
        ["phases[1][items][0][price_data][unit_amount]", "3100"],
        ["phases[1][duration][interval_count]", "1"],
      ]),
    );
  });

  test("releasing a waiting change lets go of the schedule; without one nothing is sent", async () => {
    answer("get", "/v1/subscriptions/sub_1", aStripeSubscription({ status: "active", schedule: "sub_sched_1" }));
    const released = answer("post", "/v1/subscription_schedules/sub_sched_1/release", { id: "sub_sched_1" });
    await gateway.releasePlanChange("sub_1");
    expect(released).toHaveLength(1);
    server.resetHandlers();
    answer("get", "/v1/subscriptions/sub_1", aStripeSubscription({ status: "active" }));
    expect(await gateway.releasePlanChange("sub_1")).toMatchObject({ subscription_id: "sub_1" });
  });
});

describe("cancelling a subscription a schedule runs", () => {
  test("Stripe's refusal names the schedule: it is released and the cancellation asked again", async () => {
    let asked = 0;
    const cancellations = answer("post", "/v1/subscriptions/sub_1", () => {
      asked += 1;
      return asked === 1
        ? HttpResponse.json(
            stripeError(
              "invalid_request_error",
              "The subscription is managed by the subscription schedule `sub_sched_1`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.",
            ),
            { status: 400 },
          )
        : HttpResponse.json(aStripeSubscription({ status: "active", cancel_at_period_end: true }));
    });
    answer("get", "/v1/subscriptions/sub_1", aStripeSubscription({ status: "active", schedule: "sub_sched_1" }));
    const released = answer("post", "/v1/subscription_schedules/sub_sched_1/release", { id: "sub_sched_1" });
    expect(await gateway.scheduleCancellation("sub_1")).toMatchObject({ cancel_at_period_end: true });
    expect(cancellations).toHaveLength(2);
    expect(released).toHaveLength(1);
  });

  test("any other refusal stays a refusal, and nothing is released", async () => {
    answer(
      "post",
      "/v1/subscriptions/sub_1",
      stripeError("invalid_request_error", "the subscription is canceled"),
      400,
    );
    expect(await failure(gateway.scheduleCancellation("sub_1"))).toBeInstanceOf(UpstreamRejected);
  });
});

describe("a plan change's call fails with a typed error", () => {
  const ready = () => answer("get", "/v1/subscriptions/sub_1", aStripeSubscription({ status: "active" }));

  test("a refused card (402) is a refusal, not worth retrying", async () => {
    ready();
    answer(
      "post",
      "/v1/subscriptions/sub_1",
      stripeError("card_error", "Your card was declined.", "card_declined"),
      402,
    );
    const error = await failure(gateway.changePlan(toYearly));
    expect(error).toBeInstanceOf(UpstreamRejected);
    expect(error).toMatchObject({ upstreamCode: "card_declined", transient: false });
  });

  test("429 is rate limited, 5xx a server error", async () => {
    ready();
    answer("post", "/v1/invoices/create_preview", () =>
      HttpResponse.json(stripeError("rate_limit_error", "slow down"), { status: 429, headers: { "Retry-After": "2" } }),
    );
    expect(await failure(gateway.previewPlanChange(toYearly))).toBeInstanceOf(UpstreamRateLimited);
    server.resetHandlers();
    ready();
    answer("post", "/v1/invoices/create_preview", stripeError("api_error", "boom"), 500);
    expect(await failure(gateway.previewPlanChange(toYearly))).toBeInstanceOf(UpstreamServerError);
  });

  test("a slow answer is a timeout, and garbage a bad response", async () => {
    ready();
    answer("post", "/v1/invoices/create_preview", async () => {
      await delay(1000);
      return HttpResponse.json(aPreview());
    });
    expect(await failure(gatewayWith({ timeout_seconds: 0.2 }).previewPlanChange(toYearly))).toBeInstanceOf(
      UpstreamTimeout,
    );
    server.resetHandlers();
    ready();
    answer("post", "/v1/invoices/create_preview", () => new HttpResponse("<html>", { status: 200 }));
    expect(await failure(gateway.previewPlanChange(toYearly))).toBeInstanceOf(UpstreamBadResponse);
  });

  test("a subscription without an item is a bad response; a refused connection is unreachable", async () => {
    answer("get", "/v1/subscriptions/sub_1", aStripeSubscription({ items: { data: [] } }));
    expect(await failure(gateway.changePlan(toYearly))).toBeInstanceOf(UpstreamBadResponse);
    const closed = `http://127.0.0.1:${await freePort()}`;
    server.use(http.all(`${closed}/*`, () => passthrough()));
    expect(await failure(gatewayWith({ base_url: closed }).changePlan(toYearly))).toBeInstanceOf(UpstreamUnreachable);
  });
});
