import { describe, expect, test } from "bun:test";
import { delay, HttpResponse, http, passthrough } from "msw";
import { createPaddleGateway } from "../../../../adapters/gateways/gateway-a/paddle-client.ts";
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
const gateway = createPaddleGateway({ settings: createStaticGatewaySettings() });

const aPortalSession = (subscriptions: unknown) => ({
  id: "cpls_01",
  customer_id: "ctm_01owner",
  urls: { general: { overview: "https://customer-portal.paddle.test/cpl_01/overview" }, subscriptions },
  created_at: "2026-01-01T00:00:00Z",
});

const links = (id: string, update: unknown) => ({
  id,
  cancel_subscription: `https://customer-portal.paddle.test/cpl_01/cancel/${id}`,
  update_subscription_payment_method: update,
});

describe("the customer portal at Paddle", () => {
  test("a session for the subscription's customer naming the subscription; its payment-method link is answered", async () => {
    let body: unknown;
    server.use(
      http.get(`${BASE}/subscriptions/sub_01`, () => ok(aSubscription())),
      http.post(`${BASE}/customers/ctm_01owner/portal-sessions`, async ({ request }) => {
        body = await request.json();
        return ok(
          aPortalSession([
            links("sub_other", "https://customer-portal.paddle.test/x"),
            links("sub_01", "https://customer-portal.paddle.test/cpl_01/card/sub_01"),
          ]),
        );
      }),
    );
    expect(await gateway.billingPortalUrl("sub_01", "https://shop.test/account")).toBe(
      "https://customer-portal.paddle.test/cpl_01/card/sub_01",
    );
    expect(body).toEqual({ subscription_ids: ["sub_01"] });
  });

  test("a session without the subscription's link, or with a link that is not a web address, is a bad answer", async () => {
    server.use(http.get(`${BASE}/subscriptions/sub_01`, () => ok(aSubscription())));
    for (const answer of [
      aPortalSession([]),
      aPortalSession([links("sub_01", "javascript:alert(1)")]),
      aPortalSession("nope"),
      { id: "cpls_01" },
    ]) {
      server.use(http.post(`${BASE}/customers/ctm_01owner/portal-sessions`, () => ok(answer)));
      expect(await failure(gateway.billingPortalUrl("sub_01", "https://shop.test/account"))).toBeInstanceOf(
        UpstreamBadResponse,
      );
    }
  });

  test("a subscription without a customer is a bad answer; refusals and failures come back typed", async () => {
    server.use(http.get(`${BASE}/subscriptions/sub_none`, () => ok(aSubscription({ customer_id: null }))));
    expect(await failure(gateway.billingPortalUrl("sub_none", "https://shop.test/account"))).toBeInstanceOf(
      UpstreamBadResponse,
    );
    server.use(http.get(`${BASE}/subscriptions/sub_01`, () => ok(aSubscription())));
    const outcomes: [() => Response, unknown][] = [
      [() => paddleError(404, "not_found"), UpstreamRejected],
      [() => paddleError(429, "too_many_requests"), UpstreamRateLimited],
      [() => new HttpResponse("down", { status: 503 }), UpstreamServerError],
      [() => new HttpResponse("<html>", { status: 200 }), UpstreamBadResponse],
    ];
    for (const [reply, type] of outcomes) {
      server.use(http.post(`${BASE}/customers/ctm_01owner/portal-sessions`, reply));
      expect(await failure(gateway.billingPortalUrl("sub_01", "https://shop.test/account"))).toBeInstanceOf(
        type as new () => Error,
      );
    }
  });

  test("a session slower than timeout_seconds is a timeout; a refused connection is unreachable; both worth retrying", async () => {
    server.use(
      http.get(`${BASE}/subscriptions/sub_01`, () => ok(aSubscription())),
      http.post(`${BASE}/customers/ctm_01owner/portal-sessions`, async () => {
        await delay(1000);
        return ok(aPortalSession([links("sub_01", "https://customer-portal.paddle.test/late")]));
      }),
    );
    const slow = createPaddleGateway({
      settings: createStaticGatewaySettings({ gateway_a: { timeout_seconds: 0.2 } }),
    });
    const late = await failure(slow.billingPortalUrl("sub_01", "https://shop.test/account"));
    expect(late).toBeInstanceOf(UpstreamTimeout);
    expect(late).toMatchObject({ transient: true });
    const closed = `http://127.0.0.1:${await freePort()}`;
    server.use(http.all(`${closed}/*`, () => passthrough()));
    const unreachable = createPaddleGateway({
      settings: createStaticGatewaySettings({ gateway_a: { base_url: closed } }),
    });
    const refused = await failure(unreachable.billingPortalUrl("sub_01", "https://shop.test/account"));
    expect(refused).toBeInstanceOf(UpstreamUnreachable);
    expect(refused).toMatchObject({ transient: true });
  });
});
