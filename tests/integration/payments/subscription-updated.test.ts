import { afterAll, beforeAll, expect, test } from "bun:test";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import type { SubscriptionRecord } from "../../../application/fulfillment/ports.ts";
import { createTestMarketplace } from "../../support/app.ts";
import { aFulfillmentContext } from "../../support/builders/fulfillment.ts";
import { aLicenseProduct } from "../../support/builders/products.ts";
import { useTestDatabase } from "../../support/database.ts";
import { GATEWAY_TEST_ENV, localhostOnly } from "../../support/gateway-env.ts";
import { deliverEvent, paddleEvent, stripeEvent } from "../../support/payment-events.ts";

const db = useTestDatabase();
/** The subscription as each gateway stand-in holds it now, whatever the event's body said. */
const atStripe = new Map<string, Record<string, unknown>>();
const atPaddle = new Map<string, Record<string, unknown>>();
const server = setupServer(
  http.get(`${GATEWAY_TEST_ENV.GATEWAY_B_SANDBOX_BASE_URL}/v1/subscriptions/:id`, ({ params }) =>
    HttpResponse.json({ id: params.id, object: "subscription", ...atStripe.get(String(params.id)) }),
  ),
  http.get(`${GATEWAY_TEST_ENV.GATEWAY_A_SANDBOX_BASE_URL}/subscriptions/:id`, ({ params }) =>
    HttpResponse.json({ data: { id: params.id, ...atPaddle.get(String(params.id)) }, meta: { request_id: "r" } }),
  ),
);
let marketplace: ReturnType<typeof createTestMarketplace>;

beforeAll(() => {
  server.listen({ onUnhandledRequest: localhostOnly });
  marketplace = createTestMarketplace(db.current.sql, {}, { env: { ...GATEWAY_TEST_ENV } });
  marketplace.worker.start();
});
afterAll(async () => {
  await marketplace.worker.stop({ timeoutMs: 2000 });
  server.close();
  await marketplace.close();
});

const PERIOD_END = new Date("2031-01-01T00:00:00.000Z");
const unix = (iso: string) => Date.parse(iso) / 1000;

async function aSubscriptionAt(gateway: "gateway_a" | "gateway_b") {
  const context = await aFulfillmentContext(db.current.sql, {
    product: aLicenseProduct({ is_recurring: true, price_monthly: 900 }),
    periodEnd: PERIOD_END,
  });
  const subscription = context.subscription as SubscriptionRecord;
  await db.current.sql`update subscriptions set gateway = ${gateway} where id = ${subscription.id}`;
  return { id: subscription.id, gatewayId: subscription.gateway_subscription_id ?? "" };
}

const row = async (id: string) =>
  (
    await db.current.sql<{ cancel_at_period_end: boolean; current_period_end: Date }[]>`
      select cancel_at_period_end, current_period_end from subscriptions where id = ${id}`
  )[0];

test("customer.subscription.updated shows a cancellation scheduled at Stripe, read from Stripe itself", async () => {
  const { id, gatewayId } = await aSubscriptionAt("gateway_b");
  const later = "2031-02-01T00:00:00.000Z";
  atStripe.set(gatewayId, { status: "active", cancel_at_period_end: true, current_period_end: unix(later) });
  // The body is stale (it overtook a newer change): what counts is the subscription at Stripe.
  const stale = { id: gatewayId, object: "subscription", status: "active", cancel_at_period_end: false };
  await deliverEvent(marketplace, db, "gateway_b", stripeEvent("customer.subscription.updated", stale));
  expect(await row(id)).toEqual({ cancel_at_period_end: true, current_period_end: new Date(later) });

  atStripe.set(gatewayId, { status: "active", cancel_at_period_end: false, current_period_end: unix(later) });
  await deliverEvent(marketplace, db, "gateway_b", stripeEvent("customer.subscription.updated", stale));
  expect((await row(id))?.cancel_at_period_end).toBeFalse();
});

test("subscription.updated at Paddle: a scheduled cancel shows; a past-due period does not postpone the lapse", async () => {
  const { id, gatewayId } = await aSubscriptionAt("gateway_a");
  const scheduled_change = { action: "cancel", effective_at: PERIOD_END.toISOString(), resume_at: null };
  atPaddle.set(gatewayId, {
    status: "past_due",
    current_billing_period: { starts_at: PERIOD_END.toISOString(), ends_at: "2031-02-01T00:00:00.000Z" },
    scheduled_change,
  });
  await deliverEvent(marketplace, db, "gateway_a", paddleEvent("subscription.updated", { id: gatewayId }));
  expect(await row(id)).toEqual({ cancel_at_period_end: true, current_period_end: PERIOD_END });
});

test("an earlier period end never moves the record back", async () => {
  const { id, gatewayId } = await aSubscriptionAt("gateway_b");
  atStripe.set(gatewayId, { status: "active", current_period_end: unix("2030-12-01T00:00:00.000Z") });
  await deliverEvent(
    marketplace,
    db,
    "gateway_b",
    stripeEvent("customer.subscription.updated", { id: gatewayId, object: "subscription" }),
  );
  expect(await row(id)).toEqual({ cancel_at_period_end: false, current_period_end: PERIOD_END });
});
