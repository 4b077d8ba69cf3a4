import { expect } from "bun:test";
import type { TestDatabase } from "./database.ts";
import { type E2e, eventually, fulfillmentReaches, http, SANDBOX } from "./e2e.ts";
import { SIM_TOKEN } from "./provider-sim.ts";

type Gateway = "gateway_a" | "gateway_b";
type Db = { readonly current: TestDatabase };

/** A simulator control (`/__sim/...`), which must succeed. */
export async function simControl(e2e: E2e, path: string, body?: object) {
  const response = await fetch(`${e2e.sim.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(response.status).toBeLessThan(300);
  return (await response.json()) as Record<string, any>;
}

/** An object as the sandbox's own API serves it (Paddle's `data` unwrapped). */
export async function atSandbox(e2e: E2e, gateway: Gateway, path: string) {
  const key = gateway === "gateway_a" ? SANDBOX.GATEWAY_A_SANDBOX_API_KEY : SANDBOX.GATEWAY_B_SANDBOX_API_KEY;
  const response = await fetch(`${e2e.sim.url}/${gateway}${path}`, { headers: { authorization: `Bearer ${key}` } });
  expect(response.status).toBe(200);
  const body = (await response.json()) as Record<string, any>;
  return gateway === "gateway_a" ? body.data : body;
}

/** The gateway's subscription: its status and whether it is set to end at the period end. */
export async function gatewaySubscription(e2e: E2e, gateway: Gateway, id: string) {
  const path = gateway === "gateway_a" ? `/subscriptions/${id}` : `/v1/subscriptions/${id}`;
  const subscription = await atSandbox(e2e, gateway, path);
  const scheduled =
    gateway === "gateway_a" ? subscription.scheduled_change?.action === "cancel" : subscription.cancel_at_period_end;
  return { status: subscription.status as string, scheduled: scheduled === true };
}

export interface SubscriptionRow {
  readonly id: string;
  readonly gateway_subscription_id: string;
  readonly status: string;
  readonly current_period_end: Date;
  readonly cancel_at_period_end: boolean;
}

export async function subscriptionOf(db: Db, orderId: string): Promise<SubscriptionRow> {
  const [row] = await db.current.sql<SubscriptionRow[]>`
    select s.id, s.gateway_subscription_id, s.status, s.current_period_end, s.cancel_at_period_end
    from subscriptions s join order_items i on i.id = s.order_item_id where i.order_id = ${orderId}`;
  if (!row) throw new Error(`order ${orderId} has no subscription`);
  return row;
}

/** The provider's word on a tenant. */
export async function tenantStatus(e2e: E2e, reference: string): Promise<string> {
  const response = await fetch(`${e2e.sim.url}/api/marketplace/status/${reference}`, {
    headers: { authorization: `Bearer ${SIM_TOKEN}` },
  });
  return ((await response.json()) as { status: string }).status;
}

/** The license delivered for an order, once its delivery is active: the record and the key. */
export async function licenseOf(db: Db, orderId: string) {
  const record = await fulfillmentReaches(db, orderId, "active");
  const [license] = await db.current.sql<{ license_key: string }[]>`
    select license_key from licenses where fulfillment_record_id = ${record.id}`;
  if (!license) throw new Error(`order ${orderId} has no license`);
  return { record, key: license.license_key };
}

/** What `POST /api/licenses/validate` says of a key. */
export async function validate(e2e: E2e, key: string) {
  const answer = await http(e2e.url, "POST", "/api/licenses/validate", { body: { key } });
  expect(answer.status).toBe(200);
  return answer.body as { valid: boolean; reason: string | null; expires_at: string | null };
}

/** Waits until the license row of a fulfillment is in `status`. */
export async function licenseReaches(db: Db, fulfillmentId: string, status: string) {
  return eventually(
    async () => {
      const [row] = await db.current.sql<{ status: string; expires_at: Date | null }[]>`
        select status, expires_at from licenses where fulfillment_record_id = ${fulfillmentId}`;
      return row?.status === status ? row : undefined;
    },
    5000,
    `a ${status} license`,
  );
}
