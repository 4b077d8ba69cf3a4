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

const { server, answer } = mockStripeApi();

const gateway = (patch: Parameters<ReturnType<typeof createStaticGatewaySettings>["set"]>[1] = {}) => {
  const settings = createStaticGatewaySettings();
  settings.set("gateway_b", patch);
  return createStripeGateway({ settings });
};

const aSession = (status: string) => ({ id: "cs_1", object: "checkout.session", status, url: null });
const EXPIRE = "/v1/checkout/sessions/cs_1/expire";
const notOpen = () =>
  HttpResponse.json(stripeError("invalid_request_error", "Only open sessions can be expired."), { status: 400 });

describe("expireCheckout at Stripe", () => {
  test("an open session is expired with POST /v1/checkout/sessions/{id}/expire", async () => {
    const requests = answer("post", EXPIRE, aSession("expired"));
    expect(await gateway().expireCheckout("cs_1")).toEqual({ closed_now: true, status: "expired" });
    expect(requests).toHaveLength(1);
    expect(requests[0]?.headers.get("authorization")).toStartWith("Bearer ");
    expect(requests[0]?.raw).toBe("");
  });

  test.each(["complete", "expired"])("a session already %s is refused, read back, and closed", async (status) => {
    answer("post", EXPIRE, notOpen);
    const read = answer("get", "/v1/checkout/sessions/cs_1", aSession(status));
    expect(await gateway().expireCheckout("cs_1")).toEqual({ closed_now: false, status });
    expect(read).toHaveLength(1);
  });

  test("a refusal of a session that is still open is passed on, for good", async () => {
    answer("post", EXPIRE, notOpen);
    answer("get", "/v1/checkout/sessions/cs_1", aSession("open"));
    const error = await failure(gateway().expireCheckout("cs_1"));
    expect(error).toBeInstanceOf(UpstreamRejected);
    expect(error).toMatchObject({ status: 400, transient: false });
  });

  test("a session Stripe no longer knows cannot be paid either", async () => {
    answer("post", EXPIRE, stripeError("invalid_request_error", "No such checkout.session", "resource_missing"), 404);
    expect(await gateway().expireCheckout("cs_1")).toEqual({ closed_now: false, status: "not_found" });
  });

  test("a 401 is refused for good", async () => {
    answer("post", EXPIRE, stripeError("invalid_request_error", "Invalid API Key provided."), 401);
    expect(await failure(gateway().expireCheckout("cs_1"))).toMatchObject({
      code: "GATEWAY_AUTH_FAILED",
      transient: false,
    });
  });

  test.each([
    ["a 500", () => HttpResponse.json(stripeError("api_error", "boom"), { status: 500 }), UpstreamServerError],
    ["a 503", () => new HttpResponse(null, { status: 503 }), UpstreamServerError],
    [
      "a 429 with Retry-After",
      () => new HttpResponse(null, { status: 429, headers: { "retry-after": "9" } }),
      UpstreamRateLimited,
    ],
    [
      "a body that is not JSON",
      () => new HttpResponse("<html>maintenance</html>", { status: 200 }),
      UpstreamBadResponse,
    ],
    ["another object", () => HttpResponse.json({ ...aSession("expired"), object: "invoice" }), UpstreamBadResponse],
    ["a status Stripe does not have", () => HttpResponse.json(aSession("gone")), UpstreamBadResponse],
    ["a session still open after expiring", () => HttpResponse.json(aSession("open")), UpstreamBadResponse],
  ])("%s is a transient failure: the job retries it", async (_, reply, type) => {
    answer("post", EXPIRE, reply);
    const error = await failure(gateway().expireCheckout("cs_1"));
    expect(error).toBeInstanceOf(type);
    expect(error.transient).toBeTrue();
  });

  test("Retry-After of a 429 is kept for the job's backoff", async () => {
    answer("post", EXPIRE, () => new HttpResponse(null, { status: 429, headers: { "retry-after": "9" } }));
    expect(await failure(gateway().expireCheckout("cs_1"))).toMatchObject({ retryAfterMs: 9000 });
  });

  test("the read-back failing is a failure too", async () => {
    answer("post", EXPIRE, notOpen);
    answer("get", "/v1/checkout/sessions/cs_1", () => new HttpResponse(null, { status: 502 }));
    expect(await failure(gateway().expireCheckout("cs_1"))).toBeInstanceOf(UpstreamServerError);
  });

  test("a time-out", async () => {
    answer("post", EXPIRE, async () => {
      await delay(1000);
      return HttpResponse.json(aSession("expired"));
    });
    const error = await failure(gateway({ timeout_seconds: 0.2 }).expireCheckout("cs_1"));
    expect(error).toBeInstanceOf(UpstreamTimeout);
    expect(error.transient).toBeTrue();
  });

  test("a refused connection is unreachable, and worth retrying", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    server.use(http.all(`${closed}/*`, () => passthrough()));
    const error = await failure(gateway({ base_url: closed }).expireCheckout("cs_1"));
    expect(error).toBeInstanceOf(UpstreamUnreachable);
    expect(error.transient).toBeTrue();
  });
});
