import { describe, expect, test } from "bun:test";
import { aLicenseProduct } from "../support/builders/products.ts";
import { useTestDatabase } from "../support/database.ts";
import {
  adminToken,
  buyAndPay,
  createProduct,
  eventually,
  fulfillmentReaches,
  http,
  posProductFor,
  registerCustomer,
  useE2e,
} from "../support/e2e.ts";
import {
  gatewaySubscription,
  licenseOf,
  simControl,
  subscriptionOf,
  tenantStatus,
  validate,
} from "../support/subscriptions.ts";

const db = useTestDatabase();
const e2e = useE2e(db);

type Gateway = "gateway_a" | "gateway_b";

async function delivered(gateway: Gateway, product: object, customer: { token: string }) {
  const { id } = await createProduct(e2e, product);
  const { orderId } = await buyAndPay(e2e, customer, [{ product_id: id, variant: "monthly" }], gateway);
  const record = await fulfillmentReaches(db, orderId, "active", 4000);
  return { orderId, record, subscription: await subscriptionOf(db, orderId) };
}

const subscriptionAction = (id: string, action: "cancel" | "resume", token: string) =>
  http(e2e.url, "POST", `/api/subscriptions/${id}/${action}`, { token });

/** The gateway's own update event for the subscription has been applied, `count` times. */
const updatesApplied = (gatewayId: string, count: number) =>
  eventually(
    async () => {
      const [row] = await db.current.sql<{ n: number }[]>`
        select count(*)::int as n from webhook_inbox
        where kind = 'subscription_updated' and processed_at is not null and payload like ${`%"${gatewayId}"%`}`;
      return (row?.n ?? 0) >= count;
    },
    4000,
    `${count} subscription updates applied`,
  );

/** Jobs that would call the gateway to end one of these subscriptions. */
const endJobs = async (ids: string[]) =>
  (
    await db.current.sql<{ n: number }[]>`
      select count(*)::int as n from jobs
      where kind = 'end_gateway_subscription' and payload ->> 'subscription_id' in ${db.current.sql(ids)}`
  )[0]?.n;

describe.each(["gateway_a", "gateway_b"] as const)("cancelling at %s", (gateway) => {
  test("the customer sets the end of the period and takes it back; the delivery runs on meanwhile", async () => {
    const customer = await registerCustomer(e2e);
    const { orderId, record, subscription } = await delivered(gateway, posProductFor(e2e), customer);
    const gatewayId = subscription.gateway_subscription_id;

    const cancelled = await subscriptionAction(subscription.id, "cancel", customer.token);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      id: subscription.id,
      status: "active",
      cancel_at_period_end: true,
      current_period_end: subscription.current_period_end.toISOString(),
    });
    expect(await gatewaySubscription(e2e, gateway, gatewayId)).toEqual({ status: "active", scheduled: true });
    await updatesApplied(gatewayId, 1);
    const listed = await http(e2e.url, "GET", "/api/subscriptions", { token: customer.token });
    expect(listed.body.items).toEqual([cancelled.body]);
    expect(await fulfillmentReaches(db, orderId, "active")).toMatchObject({ external_status: "active" });
    expect(await tenantStatus(e2e, record.external_reference_id ?? "")).toBe("active");

    const stranger = await registerCustomer(e2e);
    for (const action of ["cancel", "resume"] as const) {
      const refused = await subscriptionAction(subscription.id, action, stranger.token);
      expect(refused).toMatchObject({ status: 404, body: { code: "SUBSCRIPTION_NOT_FOUND" } });
    }

    const resumed = await subscriptionAction(subscription.id, "resume", customer.token);
    expect(resumed).toMatchObject({ status: 200, body: { cancel_at_period_end: false } });
    expect(await gatewaySubscription(e2e, gateway, gatewayId)).toEqual({ status: "active", scheduled: false });
    await updatesApplied(gatewayId, 2);
    expect((await subscriptionOf(db, orderId)).cancel_at_period_end).toBeFalse();
  });

  test("at the period end the tenant is cancelled at the provider and the license is revoked", async () => {
    const customer = await registerCustomer(e2e);
    const saas = await delivered(gateway, posProductFor(e2e), customer);
    const licensed = await delivered(gateway, aLicenseProduct({ is_recurring: true, price_monthly: 900 }), customer);
    const { key } = await licenseOf(db, licensed.orderId);
    expect(await validate(e2e, key)).toMatchObject({ valid: true, reason: null });

    for (const { subscription } of [saas, licensed]) {
      expect((await subscriptionAction(subscription.id, "cancel", customer.token)).status).toBe(200);
      const path = `/__sim/${gateway}/subscriptions/${subscription.gateway_subscription_id}/renew`;
      expect((await simControl(e2e, path)).outcome).toBe("ended");
    }
    const tenant = await fulfillmentReaches(db, saas.orderId, "cancelled", 4000);
    expect(tenant.external_status).toBe("cancelled");
    expect(await tenantStatus(e2e, saas.record.external_reference_id ?? "")).toBe("cancelled");
    expect((await fulfillmentReaches(db, licensed.orderId, "cancelled", 4000)).external_status).toBe("revoked");
    expect(await validate(e2e, key)).toMatchObject({ valid: false, reason: "revoked" });

    for (const action of ["resume", "cancel"] as const) {
      const refused = await subscriptionAction(saas.subscription.id, action, customer.token);
      expect(refused).toMatchObject({ status: 409, body: { code: "SUBSCRIPTION_CANCELLED" } });
    }
    expect(await endJobs([saas.subscription.id, licensed.subscription.id])).toBe(0);
  });

  test("an admin cancelling the delivery cancels the subscription at the gateway", async () => {
    const customer = await registerCustomer(e2e);
    const { orderId, record, subscription } = await delivered(gateway, posProductFor(e2e), customer);
    const admin = await adminToken(e2e);
    const cancelled = await http(e2e.url, "POST", `/api/admin/fulfillments/${record.id}/cancel`, {
      token: admin,
      body: { reason: "customer asked support" },
    });
    expect(cancelled.body).toMatchObject({ status: "cancelled" });
    expect(await tenantStatus(e2e, record.external_reference_id ?? "")).toBe("cancelled");
    await eventually(
      async () => (await gatewaySubscription(e2e, gateway, subscription.gateway_subscription_id)).status === "canceled",
      4000,
      "the gateway subscription cancelled",
    );
    await eventually(async () => (await subscriptionOf(db, orderId)).status === "cancelled", 4000, "recorded");
    const again = await subscriptionAction(subscription.id, "cancel", customer.token);
    expect(again).toMatchObject({ status: 409, body: { code: "SUBSCRIPTION_CANCELLED" } });
  });
});
