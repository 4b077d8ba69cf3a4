import { describe, expect, test } from "bun:test";
import { delay, HttpResponse } from "msw";
import { createStripeGateway } from "../../../../adapters/gateways/gateway-b/stripe-client.ts";
import { readStripeError } from "../../../../adapters/gateways/gateway-b/stripe-http.ts";
import {
  UpstreamBadResponse,
  UpstreamRateLimited,
  UpstreamRejected,
  UpstreamServerError,
  UpstreamTimeout,
} from "../../../../application/shared/errors.ts";
import { createStaticGatewaySettings } from "../../../support/fakes/static-gateway-settings.ts";
import { failure, mockStripeApi, stripeError } from "./stripe-api-mock.ts";
import { aStripeSubscription } from "./stripe-objects.ts";

const { answer } = mockStripeApi();

function setup() {
  const settings = createStaticGatewaySettings();
  return { settings, gateway: createStripeGateway({ settings }) };
}

describe("settings are read at every call", () => {
  test("the base URL, under any base path, and the key in force are used", async () => {
    const first = answer("get", "/v1/subscriptions/sub_1", aStripeSubscription());
    const second = answer("get", "/gateway_b/v1/subscriptions/sub_1", aStripeSubscription(), 200, "https://sim.test");
    const { settings, gateway } = setup();
    await gateway.getSubscription("sub_1");
    settings.set("gateway_b", { base_url: "https://sim.test/gateway_b/", api_key: "sk_test_other" });
    await gateway.getSubscription("sub_1");
    expect(first.map((request) => request.headers.get("authorization"))).toEqual([
      "Bearer sk_test_0123456789abcdefghij",
    ]);
    expect(second.map((request) => request.headers.get("authorization"))).toEqual(["Bearer sk_test_other"]);
  });
});

describe("readStripeError", () => {
  test.each([
    [
      stripeError("card_error", "Your card was declined.", "card_declined"),
      { code: "card_declined", detail: "Your card was declined." },
    ],
    [stripeError("api_error", "boom"), { code: "api_error", detail: "boom" }],
    [{ message: "not Stripe's shape" }, {}],
    ["text", {}],
  ])("%p reads as %p", (body, expected) => {
    expect(readStripeError(body)).toEqual(expected);
  });
});

describe("failed HTTP interactions become typed errors", () => {
  const getSubscription = () => setup().gateway.getSubscription("sub_1");

  test("401 is a permanent auth failure carrying Stripe's error code", async () => {
    answer("get", "/v1/subscriptions/sub_1", stripeError("invalid_request_error", "Invalid API Key provided"), 401);
    const error = await failure(getSubscription());
    expect(error).toBeInstanceOf(UpstreamRejected);
    expect(error).toMatchObject({
      code: "GATEWAY_AUTH_FAILED",
      upstreamCode: "invalid_request_error",
      transient: false,
    });
  });

  test("404 resource_missing is GATEWAY_NOT_FOUND", async () => {
    answer("get", "/v1/subscriptions/sub_1", stripeError("invalid_request_error", "No such", "resource_missing"), 404);
    expect(await failure(getSubscription())).toMatchObject({
      code: "GATEWAY_NOT_FOUND",
      upstreamCode: "resource_missing",
    });
  });

  test("429 is rate limited with Retry-After", async () => {
    answer("get", "/v1/subscriptions/sub_1", () =>
      HttpResponse.json(stripeError("rate_limit_error", "slow down"), { status: 429, headers: { "Retry-After": "7" } }),
    );
    const error = await failure(getSubscription());
    expect(error).toBeInstanceOf(UpstreamRateLimited);
    expect(error.retryAfterMs).toBe(7000);
  });

  test("500 is a transient server error", async () => {
    answer("get", "/v1/subscriptions/sub_1", stripeError("api_error", "boom"), 500);
    const error = await failure(getSubscription());
    expect(error).toBeInstanceOf(UpstreamServerError);
    expect(error.transient).toBeTrue();
  });

  test("an answer slower than timeout_seconds is a timeout", async () => {
    answer("get", "/v1/subscriptions/sub_1", async () => {
      await delay(1500);
      return HttpResponse.json(aStripeSubscription());
    });
    const { settings, gateway } = setup();
    settings.set("gateway_b", { timeout_seconds: 1 });
    expect(await failure(gateway.getSubscription("sub_1"))).toBeInstanceOf(UpstreamTimeout);
  });

  test("a body that is not JSON is a bad response", async () => {
    answer("get", "/v1/subscriptions/sub_1", () => new HttpResponse("<html>oops</html>", { status: 200 }));
    expect(await failure(getSubscription())).toBeInstanceOf(UpstreamBadResponse);
  });

  test.each([
    ["another object", { ...aStripeSubscription(), object: "customer" }],
    ["no status", { ...aStripeSubscription(), status: undefined }],
    ["a time as a string", { ...aStripeSubscription(), trial_end: "soon" }],
    ["a list", [aStripeSubscription()]],
  ])("JSON with %s is a bad response", async (_, body) => {
    answer("get", "/v1/subscriptions/sub_1", body);
    expect(await failure(getSubscription())).toBeInstanceOf(UpstreamBadResponse);
  });
});
