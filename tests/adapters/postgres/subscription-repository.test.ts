import { describe, expect, test } from "bun:test";
import { createPostgresSubscriptionRepository } from "../../../adapters/postgres/subscription-repository.ts";
import type { SubscriptionRecord } from "../../../application/fulfillment/ports.ts";
import { aFulfillmentContext } from "../../support/builders/fulfillment.ts";
import { aLicenseProduct } from "../../support/builders/products.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();

async function aSubscription() {
  const context = await aFulfillmentContext(db.current.sql, {
    product: aLicenseProduct({ is_recurring: true, price_monthly: 900 }),
  });
  return context.subscription as SubscriptionRecord;
}

describe("the subscription repository's version mark", () => {
  test("moves when what a gateway answer could set back changes, not on reads, locks or a period moved", async () => {
    const sql = db.current.sql;
    const repository = createPostgresSubscriptionRepository(sql);
    const subscription = await aSubscription();
    const gatewayId = subscription.gateway_subscription_id as string;
    const first = await repository.versionOf(subscription.gateway, gatewayId);
    expect(first).toStartWith(`${subscription.id}:`);
    await repository.findByGatewayId(subscription.gateway, gatewayId);
    await sql.begin((tx) => createPostgresSubscriptionRepository(tx).versionOf(subscription.gateway, gatewayId));
    // A renewal moves the period end forward: nothing an older answer could undo.
    await repository.update(subscription.id, { current_period_end: new Date("2031-01-01T00:00:00.000Z") });
    expect(await repository.versionOf(subscription.gateway, gatewayId)).toBe(first);
    await repository.update(subscription.id, { cancel_at_period_end: true });
    const cancelled = await repository.versionOf(subscription.gateway, gatewayId);
    expect(cancelled).not.toBe(first);
    await repository.update(subscription.id, {
      pending: { interval: "yearly", at: new Date("2031-01-01T00:00:00.000Z") },
    });
    expect(await repository.versionOf(subscription.gateway, gatewayId)).not.toBe(cancelled);
    await repository.update(subscription.id, { cancel_at_period_end: false, pending: null });
    expect(await repository.versionOf(subscription.gateway, gatewayId)).toBe(first);
    expect(await repository.versionOf(subscription.gateway, "sub_nobody")).toBe("");
  });

  test("inside a transaction it holds the rows until the transaction ends", async () => {
    const sql = db.current.sql;
    const subscription = await aSubscription();
    const gatewayId = subscription.gateway_subscription_id as string;
    let written = false;
    let write: Promise<void> | undefined;
    await sql.begin(async (tx) => {
      await createPostgresSubscriptionRepository(tx).versionOf(subscription.gateway, gatewayId);
      write = createPostgresSubscriptionRepository(sql)
        .update(subscription.id, { cancel_at_period_end: true })
        .then(() => {
          written = true;
        });
      await Bun.sleep(200);
      expect(written).toBe(false);
    });
    // The write waited for the lock and went through once the transaction ended.
    await write;
    expect(written).toBe(true);
  });
});
