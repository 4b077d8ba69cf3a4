import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import type { FulfillmentContext } from "../../../application/fulfillment/ports.ts";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { aFulfillmentContext } from "../../support/builders/fulfillment.ts";
import { aLicenseProduct } from "../../support/builders/products.ts";
import { useTestDatabase } from "../../support/database.ts";
import { GATEWAY_TEST_ENV, localhostOnly } from "../../support/gateway-env.ts";
import { call, expectProblemShape } from "../../support/http.ts";

const db = useTestDatabase();
const STRIPE = GATEWAY_TEST_ENV.GATEWAY_B_SANDBOX_BASE_URL;
/** What the Stripe stand-in was asked, and whether it is up. */
const asked: { id: string; form: string }[] = [];
let stripeDown = false;
/** Subscriptions Stripe has already ended (at this time, unix seconds): it refuses to update them. */
const endedAtStripe = new Map<string, number>();
const server = setupServer(
  http.get(`${STRIPE}/v1/subscriptions/:id`, ({ params }) =>
    HttpResponse.json({
      id: params.id,
      object: "subscription",
      status: endedAtStripe.has(String(params.id)) ? "canceled" : "active",
      canceled_at: endedAtStripe.get(String(params.id)) ?? null,
      cancel_at_period_end: false,
    }),
  ),
  http.post(`${STRIPE}/v1/subscriptions/:id`, async ({ params, request }) => {
    const form = await request.text();
    asked.push({ id: String(params.id), form });
    if (endedAtStripe.has(String(params.id))) {
      const message = "You cannot update a subscription that is `canceled` or `incomplete_expired`.";
      return HttpResponse.json({ error: { type: "invalid_request_error", message } }, { status: 400 });
    }
    if (stripeDown) return HttpResponse.json({ error: { type: "api_error", message: "down" } }, { status: 503 });
    const on = new URLSearchParams(form).get("cancel_at_period_end") === "true";
    return HttpResponse.json({ id: params.id, object: "subscription", status: "active", cancel_at_period_end: on });
  }),
);
let app: ReturnType<typeof createTestMarketplace>["app"];

beforeAll(() => {
  server.listen({ onUnhandledRequest: localhostOnly });
  app = createTestMarketplace(db.current.sql, {}, { env: { ...GATEWAY_TEST_ENV } }).app;
});
afterAll(() => server.close());

/** A monthly license subscription at gateway_b, its customer and the customer's token. */
async function aSubscription(periodEnd = new Date(Date.now() + 20 * 86_400_000)) {
  const context = await aFulfillmentContext(db.current.sql, {
    product: aLicenseProduct({ is_recurring: true, price_monthly: 900 }),
    periodEnd,
  });
  const subscription = context.subscription as NonNullable<FulfillmentContext["subscription"]>;
  return { context, subscription, token: await tokenFor("customer", context.customer.id) };
}

const post = (path: string, token: string) => call(app, "POST", path, { token });

describe("cancel and resume", () => {
  test("cancel schedules the end at the gateway and answers the subscription with cancel_at_period_end", async () => {
    const { subscription, token } = await aSubscription(new Date("2031-05-01T10:00:00.000Z"));
    const cancelled = await post(`/api/subscriptions/${subscription.id}/cancel`, token);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      id: subscription.id,
      status: "active",
      cancel_at_period_end: true,
      current_period_end: "2031-05-01T10:00:00.000Z",
      cancelled_at: null,
    });
    expect(asked.at(-1)).toEqual({ id: subscription.gateway_subscription_id ?? "", form: "cancel_at_period_end=true" });
    expect((await post(`/api/subscriptions/${subscription.id}/cancel`, token)).body.cancel_at_period_end).toBeTrue();

    const listed = await call(app, "GET", "/api/subscriptions", { token });
    expect(listed.body.items).toEqual([cancelled.body]);

    const resumed = await post(`/api/subscriptions/${subscription.id}/resume`, token);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ id: subscription.id, cancel_at_period_end: false });
    expect(asked.at(-1)?.form).toBe("cancel_at_period_end=false");
  });

  test("another customer's subscription, or none, is 404 and reaches no gateway", async () => {
    const { subscription } = await aSubscription();
    const stranger = await tokenFor("customer");
    const before = asked.length;
    for (const action of ["cancel", "resume"]) {
      expectProblemShape(
        await post(`/api/subscriptions/${subscription.id}/${action}`, stranger),
        404,
        "SUBSCRIPTION_NOT_FOUND",
      );
      expectProblemShape(
        await post(`/api/subscriptions/${crypto.randomUUID()}/${action}`, stranger),
        404,
        "SUBSCRIPTION_NOT_FOUND",
      );
      expectProblemShape(
        await post(`/api/subscriptions/not-a-uuid/${action}`, stranger),
        404,
        "SUBSCRIPTION_NOT_FOUND",
      );
    }
    expect(asked.length).toBe(before);
  });

  test("an ended subscription refuses both with 409; a period over refuses a resume", async () => {
    const ended = await aSubscription();
    await db.current.sql`update subscriptions set status = 'cancelled' where id = ${ended.subscription.id}`;
    for (const action of ["cancel", "resume"]) {
      const refused = await post(`/api/subscriptions/${ended.subscription.id}/${action}`, ended.token);
      expectProblemShape(refused, 409, "SUBSCRIPTION_CANCELLED");
    }

    const lapsing = await aSubscription(new Date(Date.now() - 60_000));
    await db.current.sql`update subscriptions set cancel_at_period_end = true where id = ${lapsing.subscription.id}`;
    const late = await post(`/api/subscriptions/${lapsing.subscription.id}/resume`, lapsing.token);
    expectProblemShape(late, 409, "SUBSCRIPTION_PERIOD_ENDED");
  });

  test("one the gateway already ended is a 409 SUBSCRIPTION_ENDED with its state, never a 502, and is recorded as ended", async () => {
    const { subscription, token } = await aSubscription();
    endedAtStripe.set(subscription.gateway_subscription_id ?? "", Date.parse("2026-06-14T09:30:00Z") / 1000);
    const refused = await post(`/api/subscriptions/${subscription.id}/cancel`, token);
    expectProblemShape(refused, 409, "SUBSCRIPTION_ENDED");
    expect(refused.body.subscription).toEqual({
      id: subscription.id,
      status: "cancelled",
      gateway_status: "canceled",
      cancelled_at: "2026-06-14T09:30:00.000Z",
    });
    const listed = await call(app, "GET", "/api/subscriptions", { token });
    expect(listed.body.items).toMatchObject([{ id: subscription.id, status: "cancelled" }]);
    const resumed = await post(`/api/subscriptions/${subscription.id}/resume`, token);
    expectProblemShape(resumed, 409, "SUBSCRIPTION_CANCELLED");
  });

  test("a gateway outage is a 502 and changes nothing", async () => {
    const { subscription, token } = await aSubscription();
    stripeDown = true;
    try {
      expectProblemShape(
        await post(`/api/subscriptions/${subscription.id}/cancel`, token),
        502,
        "GATEWAY_SERVER_ERROR",
      );
    } finally {
      stripeDown = false;
    }
    const [row] = await db.current.sql`select cancel_at_period_end from subscriptions where id = ${subscription.id}`;
    expect(row?.cancel_at_period_end).toBeFalse();
  });

  test("only a signed-in customer may ask", async () => {
    const { subscription } = await aSubscription();
    expect((await call(app, "POST", `/api/subscriptions/${subscription.id}/cancel`)).status).toBe(401);
    expect((await post(`/api/subscriptions/${subscription.id}/cancel`, await tokenFor("admin"))).status).toBe(403);
  });
});
