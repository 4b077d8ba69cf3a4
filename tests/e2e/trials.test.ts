import { describe, expect, test } from "bun:test";
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
import { simControl, tenantStatus as statusAt, subscriptionOf as subscriptionRow } from "../support/subscriptions.ts";

const subscriptionOf = (orderId: string) => subscriptionRow(db, orderId);
const tenantStatus = (reference: string) => statusAt(e2e, reference);
const simPost = (path: string, body?: object) => simControl(e2e, path, body);

const db = useTestDatabase();
let offsetMs = 0;
const e2e = useE2e(db, { clock: () => new Date(Date.now() + offsetMs) });

const paymentsOf = (orderId: string) =>
  db.current.sql<{ kind: string; amount: number }[]>`
    select kind, amount::int from payments where order_id = ${orderId} order by created_at, id`;

/** A point-of-sale subscription with a 14-day trial: nothing is due today. */
async function aTrial(gateway: "gateway_a" | "gateway_b") {
  const product = await createProduct(e2e, posProductFor(e2e, { supports_trial: true, trial_days: 14 }));
  const customer = await registerCustomer(e2e);
  const { orderId } = await buyAndPay(e2e, customer, [{ product_id: product.id, variant: "monthly" }], gateway);
  const record = await fulfillmentReaches(db, orderId, "active", 3000);
  return { orderId, record };
}

describe.each(["gateway_a", "gateway_b"] as const)("a trial through %s", (gateway) => {
  test("is delivered trialing with nothing paid; its first renewal converts it, with a renewal payment", async () => {
    const { orderId, record } = await aTrial(gateway);
    const [order] = await db.current.sql`select status, due_today::int from orders where id = ${orderId}`;
    expect(order).toEqual({ status: "paid", due_today: 0 });
    expect((await subscriptionOf(orderId)).status).toBe("trialing");
    expect(await tenantStatus(record.external_reference_id ?? "")).toBe("trialing");
    expect([...(await paymentsOf(orderId))]).toEqual([{ kind: "initial", amount: 0 }]);

    const subscription = await subscriptionOf(orderId);
    const renewed = await simPost(`/__sim/${gateway}/subscriptions/${subscription.gateway_subscription_id}/renew`);
    expect(renewed.outcome).toBe("renewed");
    await eventually(async () => (await subscriptionOf(orderId)).status === "active", 3000, "an active subscription");
    expect([...(await paymentsOf(orderId))]).toEqual([
      { kind: "initial", amount: 0 },
      { kind: "renewal", amount: 3100 },
    ]);
    await eventually(
      async () => (await tenantStatus(record.external_reference_id ?? "")) === "active",
      3000,
      "an active tenant",
    );
  });

  test("that ends unpaid suspends the delivery after the grace period", async () => {
    const { orderId, record } = await aTrial(gateway);
    const subscription = await subscriptionOf(orderId);
    const failed = await simPost(`/__sim/${gateway}/subscriptions/${subscription.gateway_subscription_id}/renew`, {
      fail: true,
    });
    expect(failed.outcome).toBe("failed");
    await eventually(
      async () => (await subscriptionOf(orderId)).status === "past_due",
      3000,
      "a past-due subscription",
    );
    expect(await e2e.marketplace.tick()).toEqual({ ran: true });
    await Bun.sleep(100);
    expect((await fulfillmentsOf(db, orderId))[0]?.external_status).not.toBe("suspended");

    // SUBSCRIPTION_GRACE_HOURS is 1 in these tests.
    offsetMs = subscription.current_period_end.getTime() - Date.now() + 2 * 3_600_000;
    try {
      expect(await e2e.marketplace.tick()).toEqual({ ran: true });
      await eventually(
        async () => (await fulfillmentsOf(db, orderId))[0]?.external_status === "suspended",
        3000,
        "a suspended delivery",
      );
      expect(await tenantStatus(record.external_reference_id ?? "")).toBe("suspended");
    } finally {
      offsetMs = 0;
    }
  });
});
