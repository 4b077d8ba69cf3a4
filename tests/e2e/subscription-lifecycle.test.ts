import { expect, test } from "bun:test";
import { useTestDatabase } from "../support/database.ts";
import {
  buyAndPay,
  createProduct,
  eventually,
  fulfillmentReaches,
  fulfillmentsOf,
  posProductFor,
  registerCustomer,
  useE2e,
} from "../support/e2e.ts";
import { tenantStatus as statusAt } from "../support/subscriptions.ts";

const db = useTestDatabase();
let offsetMs = 0;
const e2e = useE2e(db, { clock: () => new Date(Date.now() + offsetMs) });

const tenantStatus = (reference: string) => statusAt(e2e, reference);

async function deliveredSubscription(gateway: "gateway_a" | "gateway_b") {
  const product = await createProduct(e2e, posProductFor(e2e));
  const customer = await registerCustomer(e2e);
  const { orderId } = await buyAndPay(e2e, customer, [{ product_id: product.id, variant: "monthly" }], gateway);
  const record = await fulfillmentReaches(db, orderId, "active", 3000);
  const [subscription] = await db.current.sql<
    { id: string; gateway_subscription_id: string; status: string; current_period_end: Date }[]
  >`
    select s.id, s.gateway_subscription_id, s.status, s.current_period_end
    from subscriptions s join order_items i on i.id = s.order_item_id where i.order_id = ${orderId}`;
  expect(subscription?.gateway_subscription_id).toStartWith("sub_");
  return { orderId, record, subscription: subscription as NonNullable<typeof subscription> };
}

test("a cancellation event cancels the tenant at the provider and the fulfillment", async () => {
  const { orderId, record, subscription } = await deliveredSubscription("gateway_b");
  const cancelled = await fetch(
    `${e2e.sim.url}/__sim/gateway_b/subscriptions/${subscription.gateway_subscription_id}/cancel`,
    {
      method: "POST",
    },
  );
  expect(((await cancelled.json()) as { delivered: boolean }).delivered).toBeTrue();
  const after = await eventually(
    async () => {
      const [found] = await fulfillmentsOf(db, orderId);
      return found?.status === "cancelled" ? found : undefined;
    },
    3000,
    "a cancelled fulfillment",
  );
  expect(after.external_status).toBe("cancelled");
  expect(await tenantStatus(record.external_reference_id ?? "")).toBe("cancelled");
  const [row] = await db.current.sql`select status, cancelled_at from subscriptions where id = ${subscription.id}`;
  expect(row?.status).toBe("cancelled");
});

test("a lapsed period is suspended by the minute tick under a moved clock", async () => {
  const { orderId, record, subscription } = await deliveredSubscription("gateway_a");
  expect(subscription.status).toBe("active");
  expect(await e2e.marketplace.tick()).toEqual({ ran: true });
  await Bun.sleep(200);
  expect((await fulfillmentsOf(db, orderId))[0]?.external_status).toBe("active");

  offsetMs = subscription.current_period_end.getTime() - Date.now() + 2 * 3_600_000;
  expect(await e2e.marketplace.tick()).toEqual({ ran: true });
  const suspended = await eventually(
    async () => {
      const [found] = await fulfillmentsOf(db, orderId);
      return found?.external_status === "suspended" ? found : undefined;
    },
    3000,
    "a suspended tenant",
  );
  expect(suspended.status).toBe("active");
  expect(await tenantStatus(record.external_reference_id ?? "")).toBe("suspended");
  const [row] = await db.current.sql`select status from subscriptions where id = ${subscription.id}`;
  expect(row?.status).toBe("suspended");

  const renewal = await fetch(
    `${e2e.sim.url}/__sim/gateway_a/subscriptions/${subscription.gateway_subscription_id}/renew`,
    {
      method: "POST",
    },
  );
  expect(((await renewal.json()) as { delivered: boolean }).delivered).toBeTrue();
  await eventually(
    async () => (await tenantStatus(record.external_reference_id ?? "")) === "active",
    3000,
    "a resumed tenant",
  );
  offsetMs = 0;
});
