import { describe, expect, test } from "bun:test";
import { delay, HttpResponse, http, passthrough } from "msw";
import { createStripeGateway } from "../../../../adapters/gateways/gateway-b/stripe-client.ts";
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

const gateway = (patch: Parameters<ReturnType<typeof createStaticGatewaySettings>["set"]>[1] = {}) => {
  const settings = createStaticGatewaySettings();
  settings.set("gateway_b", patch);
  return createStripeGateway({ settings });
};

const CALLS = {
  scheduleCancellation: (g: ReturnType<typeof gateway>) => g.scheduleCancellation("sub_1"),
  resumeSubscription: (g: ReturnType<typeof gateway>) => g.resumeSubscription("sub_1"),
};

describe("subscriptions", () => {
  test("getSubscription turns unix seconds into ISO times", async () => {
    answer("get", "/v1/subscriptions/sub_1", aStripeSubscription());
    expect(await gateway().getSubscription("sub_1")).toEqual({
      subscription_id: "sub_1",
      status: "trialing",
      customer_id: "cus_1",
      trial_ends_at: "2026-03-15T12:00:00.000Z",
      current_period_end: "2026-04-01T12:00:00.000Z",
      cancelled_at: null,
      cancel_at_period_end: false,
      price_id: "price_1",
      billing_interval: "monthly",
    });
  });

  test("the period end is read from the items in newer API versions", async () => {
    const items = { data: [{ current_period_end: 1775044800 }] };
    answer("get", "/v1/subscriptions/sub_1", aStripeSubscription({ current_period_end: undefined, items }));
    expect((await gateway().getSubscription("sub_1")).current_period_end).toBe("2026-04-01T12:00:00.000Z");
  });

  test("cancelSubscription deletes it and reports the cancellation", async () => {
    const requests = answer(
      "delete",
      "/v1/subscriptions/sub_1",
      aStripeSubscription({ status: "canceled", trial_end: null, canceled_at: 1772366400 }),
    );
    expect(await gateway().cancelSubscription("sub_1")).toMatchObject({
      status: "canceled",
      trial_ends_at: null,
      cancelled_at: "2026-03-01T12:00:00.000Z",
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]?.raw).toBe("");
  });
});

describe("cancelling at the period end", () => {
  test("scheduleCancellation sets cancel_at_period_end and reads it back", async () => {
    const requests = answer(
      "post",
      "/v1/subscriptions/sub_1",
      aStripeSubscription({ status: "active", trial_end: null, cancel_at_period_end: true, canceled_at: 1772366400 }),
    );
    expect(await gateway().scheduleCancellation("sub_1")).toEqual({
      subscription_id: "sub_1",
      status: "active",
      customer_id: "cus_1",
      trial_ends_at: null,
      current_period_end: "2026-04-01T12:00:00.000Z",
      // Stripe stamps when the cancellation was asked for; the subscription still runs.
      cancelled_at: "2026-03-01T12:00:00.000Z",
      cancel_at_period_end: true,
      price_id: "price_1",
      billing_interval: "monthly",
    });
    expect(requests.map((request) => request.form)).toEqual([[["cancel_at_period_end", "true"]]]);
    expect(requests[0]?.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
  });

  test("resumeSubscription clears it", async () => {
    const requests = answer("post", "/v1/subscriptions/sub_1", aStripeSubscription({ cancel_at_period_end: false }));
    expect(await gateway().resumeSubscription("sub_1")).toMatchObject({ cancel_at_period_end: false });
    expect(requests.map((request) => request.raw)).toEqual(["cancel_at_period_end=false"]);
  });

  test("the id is escaped into the path", async () => {
    const requests = answer("post", "/v1/subscriptions/sub%2F..%2Fx", aStripeSubscription({ id: "sub/../x" }));
    await gateway().scheduleCancellation("sub/../x");
    expect(requests).toHaveLength(1);
  });
});

describe.each(Object.entries(CALLS))("%s fails with a typed error", (_, call) => {
  test("a canceled subscription is refused for good, with Stripe's code", async () => {
    answer(
      "post",
      "/v1/subscriptions/sub_1",
      stripeError("invalid_request_error", "the subscription is canceled", "parameter_invalid"),
      400,
    );
    const error = await failure(call(gateway()));
    expect(error).toBeInstanceOf(UpstreamRejected);
    expect(error).toMatchObject({ code: "GATEWAY_REJECTED", upstreamCode: "parameter_invalid", transient: false });
  });

  test("429 is rate limited with Retry-After", async () => {
    answer("post", "/v1/subscriptions/sub_1", () =>
      HttpResponse.json(stripeError("rate_limit_error", "slow down"), { status: 429, headers: { "Retry-After": "3" } }),
    );
    const error = await failure(call(gateway()));
    expect(error).toBeInstanceOf(UpstreamRateLimited);
    expect(error.retryAfterMs).toBe(3000);
  });

  test("500 is a transient server error", async () => {
    answer("post", "/v1/subscriptions/sub_1", stripeError("api_error", "boom"), 503);
    const error = await failure(call(gateway()));
    expect(error).toBeInstanceOf(UpstreamServerError);
    expect(error.transient).toBeTrue();
  });

  test("an answer slower than timeout_seconds is a timeout", async () => {
    answer("post", "/v1/subscriptions/sub_1", async () => {
      await delay(1000);
      return HttpResponse.json(aStripeSubscription());
    });
    expect(await failure(call(gateway({ timeout_seconds: 0.2 })))).toBeInstanceOf(UpstreamTimeout);
  });

  test.each([
    ["a body that is not JSON", () => new HttpResponse("<html>oops</html>", { status: 200 })],
    ["another object", () => HttpResponse.json({ ...aStripeSubscription(), object: "invoice" })],
    ["a flag that is not a boolean", () => HttpResponse.json(aStripeSubscription({ cancel_at_period_end: "yes" }))],
  ])("%s is a bad response", async (_, reply) => {
    answer("post", "/v1/subscriptions/sub_1", reply);
    expect(await failure(call(gateway()))).toBeInstanceOf(UpstreamBadResponse);
  });

  test("a refused connection is unreachable, and worth retrying", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    server.use(http.all(`${closed}/*`, () => passthrough()));
    const error = await failure(call(gateway({ base_url: closed })));
    expect(error).toBeInstanceOf(UpstreamUnreachable);
    expect(error).toMatchObject({ transient: true, message: expect.stringContaining("connection refused") });
  });
});
