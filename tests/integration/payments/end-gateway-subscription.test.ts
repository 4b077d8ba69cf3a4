import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import type { FulfillmentContext, SubscriptionRecord } from "../../../application/fulfillment/ports.ts";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { aFulfillmentContext } from "../../support/builders/fulfillment.ts";
import { aLicenseProduct } from "../../support/builders/products.ts";
import { useTestDatabase } from "../../support/database.ts";
import { eventually } from "../../support/e2e.ts";
import { GATEWAY_TEST_ENV, localhostOnly } from "../../support/gateway-env.ts";
import { call } from "../../support/http.ts";
import { deliverEvent, stripeEvent } from "../../support/payment-events.ts";

const db = useTestDatabase();
const STRIPE = GATEWAY_TEST_ENV.GATEWAY_B_SANDBOX_BASE_URL;
/** Every DELETE the Stripe stand-in got, and how it answers per subscription (default: cancelled). */
const deletes: string[] = [];
const refusals = new Map<string, { status: number; thenStatus: string }>();
const subscriptionBody = (id: string, status: string) => ({ id, object: "subscription", status });
const server = setupServer(
  http.delete(`${STRIPE}/v1/subscriptions/:id`, ({ params }) => {
    const id = String(params.id);
    deletes.push(id);
    const refusal = refusals.get(id);
    if (!refusal) return HttpResponse.json(subscriptionBody(id, "canceled"));
    const error = { type: "invalid_request_error", message: "No such subscription or already canceled" };
    return HttpResponse.json({ error }, { status: refusal.status });
  }),
  http.get(`${STRIPE}/v1/subscriptions/:id`, ({ params }) =>
    HttpResponse.json(subscriptionBody(String(params.id), refusals.get(String(params.id))?.thenStatus ?? "active")),
  ),
);
let marketplace: ReturnType<typeof createTestMarketplace>;
let admin = "";

beforeAll(async () => {
  server.listen({ onUnhandledRequest: localhostOnly });
  const env = { ...GATEWAY_TEST_ENV, JOB_MAX_ATTEMPTS: "1" };
  marketplace = createTestMarketplace(db.current.sql, {}, { env });
  marketplace.worker.start();
  admin = await tokenFor("admin");
});
afterAll(async () => {
  await marketplace.worker.stop({ timeoutMs: 2000 });
  server.close();
  await marketplace.close();
});

/** A delivered monthly license at gateway_b. */
async function aDeliveredSubscription() {
  const context = await aFulfillmentContext(db.current.sql, {
    product: aLicenseProduct({ is_recurring: true, price_monthly: 900 }),
  });
  await db.current.sql`update fulfillment_records set status = 'active' where id = ${context.record.id}`;
  return { context, subscription: context.subscription as SubscriptionRecord };
}

/** A second delivered item of the same order, billed by the same gateway subscription. */
async function aSecondItem(context: FulfillmentContext) {
  const sql = db.current.sql;
  const [item] = await sql<{ id: string }[]>`
    insert into order_items (order_id, position, product_id, product_name, variant, payment_type, license_type,
                             billing_interval, unit_price, quantity, amount, trial_days, due_today, delivery_model,
                             fulfillment_driver, options)
    select order_id, 1, product_id, product_name, variant, payment_type, license_type, billing_interval, unit_price,
           quantity, amount, trial_days, due_today, delivery_model, fulfillment_driver, options
    from order_items where id = ${context.item.id}
    returning id`;
  const [record] = await sql<{ id: string }[]>`
    insert into fulfillment_records (order_id, order_item_id, product_id, customer_id, driver, status, attempts)
    values (${context.order.id}, ${item?.id ?? ""}, ${context.product.id}, ${context.customer.id}, 'license_download',
            'active', 1)
    returning id`;
  await sql`
    insert into subscriptions (order_id, order_item_id, customer_id, product_id, gateway, gateway_subscription_id,
                               status, billing_interval, current_period_end)
    select order_id, ${item?.id ?? ""}, customer_id, product_id, gateway, gateway_subscription_id, status,
           billing_interval, current_period_end
    from subscriptions where order_item_id = ${context.item.id}`;
  return record?.id ?? "";
}

const adminCancel = (fulfillmentId: string) =>
  call(marketplace.app, "POST", `/api/admin/fulfillments/${fulfillmentId}/cancel`, { token: admin, body: {} });

const subscriptionStatus = async (id: string) =>
  (await db.current.sql<{ status: string }[]>`select status from subscriptions where id = ${id}`)[0]?.status;

const endJobs = async (subscriptionId: string) => [
  ...(await db.current.sql<{ state: string; last_error: string | null }[]>`
    select state, last_error from jobs
    where kind = 'end_gateway_subscription' and payload ->> 'subscription_id' = ${subscriptionId}`),
];

describe("an admin cancelling a delivery ends the subscription at its gateway", () => {
  test("once: the delivery is cancelled, then the gateway subscription, and a repeat asks nothing more", async () => {
    const { context, subscription } = await aDeliveredSubscription();
    const cancelled = await adminCancel(context.record.id);
    expect(cancelled.body).toMatchObject({ status: "cancelled" });
    await eventually(async () => (await subscriptionStatus(subscription.id)) === "cancelled", 5000, "cancelled");
    expect(deletes.filter((id) => id === subscription.gateway_subscription_id)).toHaveLength(1);
    expect((await adminCancel(context.record.id)).status).toBe(200);
    await Bun.sleep(200);
    expect(deletes.filter((id) => id === subscription.gateway_subscription_id)).toHaveLength(1);
    expect(await endJobs(subscription.id)).toEqual([{ state: "done", last_error: null }]);
  });

  test.each([
    ["no longer known to the gateway (404)", { status: 404, thenStatus: "canceled" }],
    ["refused as already canceled", { status: 400, thenStatus: "canceled" }],
  ])("a subscription %s is fine", async (_, refusal) => {
    const { context, subscription } = await aDeliveredSubscription();
    refusals.set(subscription.gateway_subscription_id ?? "", refusal);
    await adminCancel(context.record.id);
    await eventually(async () => (await subscriptionStatus(subscription.id)) === "cancelled", 5000, "cancelled");
    expect(await endJobs(subscription.id)).toEqual([{ state: "done", last_error: null }]);
  });

  test("a refusal of a subscription still running is a failed job, and the subscription stays", async () => {
    const { context, subscription } = await aDeliveredSubscription();
    refusals.set(subscription.gateway_subscription_id ?? "", { status: 400, thenStatus: "active" });
    await adminCancel(context.record.id);
    const [job] = await eventually(async () => {
      const jobs = await endJobs(subscription.id);
      return jobs[0]?.state === "dead" ? jobs : undefined;
    });
    expect(job?.last_error).toContain("HTTP 400");
    expect(await subscriptionStatus(subscription.id)).toBe("active");
  });

  test("a subscription that bills another live delivery stays until that one is cancelled too", async () => {
    const { context, subscription } = await aDeliveredSubscription();
    const second = await aSecondItem(context);
    await adminCancel(context.record.id);
    await Bun.sleep(200);
    expect(deletes).not.toContain(subscription.gateway_subscription_id);
    await adminCancel(second);
    await eventually(
      async () => deletes.includes(subscription.gateway_subscription_id ?? ""),
      5000,
      "the gateway asked",
    );
  });

  test("a cancellation the gateway announced cancels the delivery without asking the gateway again", async () => {
    const { context, subscription } = await aDeliveredSubscription();
    const gatewayId = subscription.gateway_subscription_id ?? "";
    await deliverEvent(
      marketplace,
      db,
      "gateway_b",
      stripeEvent("customer.subscription.deleted", {
        ...subscriptionBody(gatewayId, "canceled"),
        metadata: { order_id: context.order.id },
      }),
    );
    await eventually(async () => {
      const [record] = await db.current.sql`select status from fulfillment_records where id = ${context.record.id}`;
      return record?.status === "cancelled";
    });
    expect(await subscriptionStatus(subscription.id)).toBe("cancelled");
    expect(deletes).not.toContain(gatewayId);
    expect(await endJobs(subscription.id)).toEqual([]);
  });
});
