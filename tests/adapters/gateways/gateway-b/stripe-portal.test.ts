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
const gateway = createStripeGateway({ settings: createStaticGatewaySettings() });
const gatewayWith = (patch: Parameters<ReturnType<typeof createStaticGatewaySettings>["set"]>[1]) => {
  const settings = createStaticGatewaySettings();
  settings.set("gateway_b", patch);
  return createStripeGateway({ settings });
};

const aPortalSession = (url: unknown) => ({
  id: "bps_1",
  object: "billing_portal.session",
  customer: "cus_1",
  return_url: "https://shop.test/account",
  url,
});

describe("the customer portal at Stripe", () => {
  test("a session for the subscription's customer, on the payment-method flow, leading back to the return URL", async () => {
    answer("get", "/v1/subscriptions/sub_1", aStripeSubscription({ customer: "cus_1" }));
    const sessions = answer(
      "post",
      "/v1/billing_portal/sessions",
      aPortalSession("https://billing.stripe.test/p/session/1"),
    );
    expect(await gateway.billingPortalUrl("sub_1", "https://shop.test/account")).toBe(
      "https://billing.stripe.test/p/session/1",
    );
    expect(sessions.map((request) => request.form)).toEqual([
      [
        ["customer", "cus_1"],
        ["return_url", "https://shop.test/account"],
        ["flow_data[type]", "payment_method_update"],
      ],
    ]);
  });

  test("an expanded customer is read by its id", async () => {
    answer("get", "/v1/subscriptions/sub_1", aStripeSubscription({ customer: { id: "cus_9", object: "customer" } }));
    const sessions = answer("post", "/v1/billing_portal/sessions", aPortalSession("https://billing.stripe.test/p/9"));
    await gateway.billingPortalUrl("sub_1", "https://shop.test/account");
    expect(sessions[0]?.form[0]).toEqual(["customer", "cus_9"]);
  });

  test("no customer, no link or a link that is not a web address is a bad answer", async () => {
    answer("get", "/v1/subscriptions/sub_none", aStripeSubscription({ id: "sub_none", customer: null }));
    expect(await failure(gateway.billingPortalUrl("sub_none", "https://shop.test/account"))).toBeInstanceOf(
      UpstreamBadResponse,
    );
    answer("get", "/v1/subscriptions/sub_1", aStripeSubscription());
    answer("post", "/v1/billing_portal/sessions", aPortalSession("javascript:alert(1)"));
    expect(await failure(gateway.billingPortalUrl("sub_1", "https://shop.test/account"))).toBeInstanceOf(
      UpstreamBadResponse,
    );
    answer("post", "/v1/billing_portal/sessions", aPortalSession(null));
    expect(await failure(gateway.billingPortalUrl("sub_1", "https://shop.test/account"))).toBeInstanceOf(
      UpstreamBadResponse,
    );
  });

  test("Stripe's refusals and failures come back typed", async () => {
    answer("get", "/v1/subscriptions/sub_1", aStripeSubscription());
    // Stripe refuses a session while the account has no portal configuration saved.
    answer(
      "post",
      "/v1/billing_portal/sessions",
      stripeError(
        "invalid_request_error",
        "No configuration provided and your default configuration has not been created.",
      ),
      400,
    );
    expect(await failure(gateway.billingPortalUrl("sub_1", "https://shop.test/account"))).toBeInstanceOf(
      UpstreamRejected,
    );
    answer("post", "/v1/billing_portal/sessions", stripeError("rate_limit_error", "Too many requests"), 429);
    expect(await failure(gateway.billingPortalUrl("sub_1", "https://shop.test/account"))).toBeInstanceOf(
      UpstreamRateLimited,
    );
    answer("post", "/v1/billing_portal/sessions", () => new HttpResponse("<html>", { status: 502 }));
    expect(await failure(gateway.billingPortalUrl("sub_1", "https://shop.test/account"))).toBeInstanceOf(
      UpstreamServerError,
    );
    answer("post", "/v1/billing_portal/sessions", () => new HttpResponse("not json", { status: 200 }));
    expect(await failure(gateway.billingPortalUrl("sub_1", "https://shop.test/account"))).toBeInstanceOf(
      UpstreamBadResponse,
    );
  });

  test("a session slower than timeout_seconds is a timeout; a refused connection is unreachable; both worth retrying", async () => {
    answer("get", "/v1/subscriptions/sub_1", aStripeSubscription());
    answer("post", "/v1/billing_portal/sessions", async () => {
      await delay(1000);
      return HttpResponse.json(aPortalSession("https://billing.stripe.test/p/late"));
    });
    const late = await failure(gatewayWith({ timeout_seconds: 0.2 }).billingPortalUrl("sub_1", "https://shop.test/a"));
    expect(late).toBeInstanceOf(UpstreamTimeout);
    expect(late).toMatchObject({ transient: true });
    const closed = `http://127.0.0.1:${await freePort()}`;
    server.use(http.all(`${closed}/*`, () => passthrough()));
    const refused = await failure(gatewayWith({ base_url: closed }).billingPortalUrl("sub_1", "https://shop.test/a"));
    expect(refused).toBeInstanceOf(UpstreamUnreachable);
    expect(refused).toMatchObject({ transient: true });
  });
});
