import { expect, test } from "bun:test";
import { aLicenseProduct } from "../support/builders/products.ts";
import { useTestDatabase } from "../support/database.ts";
import { buyAndPay, createProduct, eventually, http, registerCustomer, useE2e } from "../support/e2e.ts";
import {
  atSandbox,
  licenseOf,
  licenseReaches,
  simControl,
  subscriptionOf,
  validate,
} from "../support/subscriptions.ts";

const db = useTestDatabase();
let offsetMs = 0;
const e2e = useE2e(db, { clock: () => new Date(Date.now() + offsetMs) });

async function aLicense(variant: "monthly" | "regular", gateway: "gateway_a" | "gateway_b") {
  const product = await createProduct(
    e2e,
    aLicenseProduct({
      is_recurring: true,
      price_monthly: 900,
      default_release_version: "1.0.0",
      fulfillment_config: {
        license_type: "commercial",
        artifact_source: `${e2e.sim.url}/artifacts/app`,
        max_activations: 3,
      },
    }),
  );
  const customer = await registerCustomer(e2e);
  const { orderId } = await buyAndPay(e2e, customer, [{ product_id: product.id, variant }], gateway);
  return { orderId, customer, ...(await licenseOf(db, orderId)) };
}

/** Whole seconds, as the key's claims and the stored expiry keep them. */
const seconds = (date: Date) => new Date(Math.floor(date.getTime() / 1000) * 1000).toISOString();

test.each(["gateway_a", "gateway_b"] as const)(
  "%s: each renewal moves the license's expiry to the new period end",
  async (gateway) => {
    const { orderId, key, record } = await aLicense("monthly", gateway);
    const first = await subscriptionOf(db, orderId);
    expect(await validate(e2e, key)).toMatchObject({ valid: true, expires_at: seconds(first.current_period_end) });

    const renewed = await simControl(e2e, `/__sim/${gateway}/subscriptions/${first.gateway_subscription_id}/renew`);
    expect(renewed.outcome).toBe("renewed");
    const next = await eventually(
      async () => {
        const now = await subscriptionOf(db, orderId);
        return now.current_period_end > first.current_period_end ? now : undefined;
      },
      4000,
      "the next period",
    );
    await eventually(
      async () =>
        (await licenseReaches(db, record.id, "active")).expires_at?.toISOString() === seconds(next.current_period_end),
      4000,
      "the license expiring with the new period",
    );
    expect(await validate(e2e, key)).toMatchObject({
      valid: true,
      reason: null,
      expires_at: seconds(next.current_period_end),
    });
  },
);

test("a dispute suspends the license; won, it is valid again; lost, it is revoked", async () => {
  for (const outcome of ["won", "lost"] as const) {
    const { orderId, key, record } = await aLicense("regular", "gateway_b");
    const [payment] = await db.current.sql<{ payment_id: string }[]>`
      select payment_id from payments where order_id = ${orderId}`;
    const intent = await atSandbox(e2e, "gateway_b", `/v1/payment_intents/${payment?.payment_id}`);
    const opened = await simControl(e2e, `/__sim/gateway_b/charges/${intent.latest_charge}/dispute`);
    await licenseReaches(db, record.id, "suspended");
    expect(await validate(e2e, key)).toMatchObject({ valid: false, reason: "suspended" });

    await simControl(e2e, `/__sim/gateway_b/disputes/${opened.dispute.id}/close`, { outcome });
    await licenseReaches(db, record.id, outcome === "won" ? "active" : "revoked");
    expect(await validate(e2e, key)).toMatchObject(
      outcome === "won" ? { valid: true, reason: null } : { valid: false, reason: "revoked" },
    );
  }
});

test("a lapsed subscription suspends its license until a renewal is paid", async () => {
  const { orderId, key, record, customer } = await aLicense("monthly", "gateway_a");
  const subscription = await subscriptionOf(db, orderId);
  const download = async () => {
    const licenses = await http(e2e.url, "GET", "/api/licenses", { token: customer.token });
    const url = licenses.body.items[0]?.download_url as string;
    return fetch(url, { headers: { authorization: `Bearer ${customer.token}` }, redirect: "manual" });
  };
  try {
    offsetMs = subscription.current_period_end.getTime() - Date.now() + 2 * 3_600_000;
    expect(await e2e.marketplace.tick()).toEqual({ ran: true });
    await licenseReaches(db, record.id, "suspended");
    expect(await validate(e2e, key)).toMatchObject({ valid: false, reason: "suspended" });
    const refused = await download();
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: "DOWNLOAD_SUSPENDED" });

    await simControl(e2e, `/__sim/gateway_a/subscriptions/${subscription.gateway_subscription_id}/renew`);
    const renewed = await licenseReaches(db, record.id, "active");
    expect(renewed.expires_at?.getTime()).toBeGreaterThan(subscription.current_period_end.getTime());
    expect(await validate(e2e, key)).toMatchObject({ valid: true, reason: null });
    const resumed = await download();
    expect([resumed.status, await resumed.text()]).toEqual([200, "app 1.0.0 release archive\n"]);
  } finally {
    offsetMs = 0;
  }
});
