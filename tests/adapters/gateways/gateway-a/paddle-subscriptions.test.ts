import { describe, expect, test } from "bun:test";
import { HttpResponse, http, passthrough } from "msw";
import { createPaddleGateway } from "../../../../adapters/gateways/gateway-a/paddle-client.ts";
import { UpstreamBadResponse, UpstreamUnreachable } from "../../../../application/shared/errors.ts";
import { freePort } from "../../../../scripts/lib/postgres-cluster.ts";
import { createStaticGatewaySettings } from "../../../support/fakes/static-gateway-settings.ts";
import { aSubscription, BASE, failure, ok, useMockPaddle } from "./paddle-fixtures.ts";

const server = useMockPaddle();
const gateway = createPaddleGateway({ settings: createStaticGatewaySettings() });

describe("subscriptions", () => {
  test("getSubscription reads the period end, and the trial end while trialing", async () => {
    server.use(
      http.get(`${BASE}/subscriptions/sub_01`, () => ok(aSubscription())),
      http.get(`${BASE}/subscriptions/sub_02`, () =>
        ok(
          aSubscription({
            id: "sub_02",
            status: "trialing",
            items: [{ trial_dates: { starts_at: "2026-01-01T00:00:00Z", ends_at: "2026-01-15T00:00:00Z" } }],
          }),
        ),
      ),
    );
    expect(await gateway.getSubscription("sub_01")).toEqual({
      subscription_id: "sub_01",
      status: "active",
      customer_id: "ctm_01owner",
      trial_ends_at: null,
      current_period_end: "2026-02-01T00:00:00Z",
      cancelled_at: null,
      cancel_at_period_end: false,
      price_id: "pri_01",
      billing_interval: "monthly",
    });
    expect(await gateway.getSubscription("sub_02")).toMatchObject({ trial_ends_at: "2026-01-15T00:00:00Z" });
  });

  test("cancelSubscription cancels immediately and returns the cancelled subscription", async () => {
    let body: unknown;
    server.use(
      http.post(`${BASE}/subscriptions/sub_01/cancel`, async ({ request }) => {
        body = await request.json();
        return ok(
          aSubscription({ status: "canceled", current_billing_period: null, canceled_at: "2026-01-20T00:00:00Z" }),
        );
      }),
    );
    expect(await gateway.cancelSubscription("sub_01")).toEqual({
      subscription_id: "sub_01",
      status: "canceled",
      customer_id: "ctm_01owner",
      trial_ends_at: null,
      current_period_end: null,
      cancelled_at: "2026-01-20T00:00:00Z",
      cancel_at_period_end: false,
      price_id: "pri_01",
      billing_interval: "monthly",
    });
    expect(body).toEqual({ effective_from: "immediately" });
  });

  test("scheduleCancellation asks for the end of the billing period; the scheduled change reads as cancel_at_period_end", async () => {
    let body: unknown;
    const scheduled_change = { action: "cancel", effective_at: "2026-02-01T00:00:00Z", resume_at: null };
    server.use(
      http.post(`${BASE}/subscriptions/sub_01/cancel`, async ({ request }) => {
        body = await request.json();
        return ok(aSubscription({ scheduled_change }));
      }),
    );
    expect(await gateway.scheduleCancellation("sub_01")).toEqual({
      subscription_id: "sub_01",
      status: "active",
      customer_id: "ctm_01owner",
      trial_ends_at: null,
      current_period_end: "2026-02-01T00:00:00Z",
      cancelled_at: null,
      cancel_at_period_end: true,
      price_id: "pri_01",
      billing_interval: "monthly",
    });
    expect(body).toEqual({ effective_from: "next_billing_period" });
  });

  test("resumeSubscription removes the scheduled change", async () => {
    let body: unknown;
    server.use(
      http.patch(`${BASE}/subscriptions/sub_01`, async ({ request }) => {
        body = await request.json();
        return ok(aSubscription({ scheduled_change: null }));
      }),
    );
    expect(await gateway.resumeSubscription("sub_01")).toMatchObject({ status: "active", cancel_at_period_end: false });
    expect(body).toEqual({ scheduled_change: null });
  });

  test("a scheduled change of another kind is no cancellation; one that is not an object is a bad response", async () => {
    const pause = { action: "pause", effective_at: "2026-02-01T00:00:00Z", resume_at: null };
    server.use(
      http.get(`${BASE}/subscriptions/sub_01`, () => ok(aSubscription({ scheduled_change: pause }))),
      http.get(`${BASE}/subscriptions/sub_02`, () => ok(aSubscription({ scheduled_change: "cancel" }))),
    );
    expect((await gateway.getSubscription("sub_01")).cancel_at_period_end).toBeFalse();
    expect(await failure(gateway.getSubscription("sub_02"))).toBeInstanceOf(UpstreamBadResponse);
  });

  test("a gateway that refuses the connection is unreachable, and worth retrying", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    server.use(http.all(`${closed}/*`, () => passthrough()));
    const unreachable = createPaddleGateway({
      settings: createStaticGatewaySettings({ gateway_a: { base_url: closed } }),
    });
    for (const call of [unreachable.scheduleCancellation("sub_01"), unreachable.resumeSubscription("sub_01")]) {
      const error = await failure(call);
      expect(error).toBeInstanceOf(UpstreamUnreachable);
      expect(error).toMatchObject({ transient: true, message: expect.stringContaining("connection refused") });
    }
  });

  test("ids are escaped into the path", async () => {
    server.use(http.get(`${BASE}/subscriptions/:id`, ({ params }) => ok(aSubscription({ id: params.id }))));
    expect((await gateway.getSubscription("sub/../x")).subscription_id).toBe("sub/../x");
  });

  test("a date of the wrong type is a bad response", async () => {
    server.use(
      http.get(`${BASE}/subscriptions/sub_01`, () => HttpResponse.json({ data: aSubscription({ canceled_at: 5 }) })),
    );
    expect(await failure(gateway.getSubscription("sub_01"))).toBeInstanceOf(UpstreamBadResponse);
  });
});
