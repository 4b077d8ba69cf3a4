import { describe, expect, test } from "bun:test";
import { HttpResponse, http } from "msw";
import { createPaddleGateway } from "../../../../adapters/gateways/gateway-a/paddle-client.ts";
import { UpstreamBadResponse } from "../../../../application/shared/upstream-errors.ts";
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
      trial_ends_at: null,
      current_period_end: "2026-02-01T00:00:00Z",
      cancelled_at: null,
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
      trial_ends_at: null,
      current_period_end: null,
      cancelled_at: "2026-01-20T00:00:00Z",
    });
    expect(body).toEqual({ effective_from: "immediately" });
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
