import type { createTestMarketplace } from "./app.ts";
import type { TestDatabaseHandle } from "./database.ts";
import { eventually } from "./e2e.ts";
import { GATEWAY_TEST_ENV } from "./gateway-env.ts";
import { call } from "./http.ts";
import { signPaddleWebhook, signStripeWebhook } from "./webhook-signers.ts";

type Marketplace = ReturnType<typeof createTestMarketplace>;

/** Each gateway's live webhook secret, beside the sandbox ones of `GATEWAY_TEST_ENV`. */
export const LIVE_WEBHOOK_SECRETS = {
  GATEWAY_A_LIVE_WEBHOOK_SECRET: GATEWAY_TEST_ENV.GATEWAY_A_LIVE_WEBHOOK_SECRET,
  GATEWAY_B_LIVE_WEBHOOK_SECRET: "whsec_stripe_live_webhook_secret_321",
} as const;

let sequence = 0;
export const uniqueId = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(++sequence).toString(36)}`;

/** A Stripe event envelope around `object`, as Stripe sends it. */
export function stripeEvent(type: string, object: object, options: { livemode?: boolean; id?: string } = {}) {
  return {
    id: options.id ?? uniqueId("evt"),
    object: "event",
    api_version: "2026-10-28.endive",
    created: Math.floor(Date.now() / 1000),
    livemode: options.livemode ?? false,
    type,
    data: { object },
  };
}

/** A Paddle notification around `data`. */
export function paddleEvent(type: string, data: object, options: { id?: string } = {}) {
  return {
    event_id: options.id ?? uniqueId("evt"),
    event_type: type,
    occurred_at: new Date().toISOString(),
    notification_id: uniqueId("ntf"),
    data,
  };
}

/**
 * Posts a signed event to the marketplace's webhook route and waits until the payment job has
 * applied it. `secret` defaults to the gateway's sandbox secret.
 */
export async function deliverEvent(
  marketplace: Marketplace,
  db: TestDatabaseHandle,
  gateway: "gateway_a" | "gateway_b",
  event: { id?: string; event_id?: string },
  secret?: string,
): Promise<void> {
  const body = JSON.stringify(event);
  const header: Record<string, string> =
    gateway === "gateway_b"
      ? {
          "stripe-signature": await signStripeWebhook(
            body,
            secret ?? GATEWAY_TEST_ENV.GATEWAY_B_SANDBOX_WEBHOOK_SECRET,
            Date.now(),
          ),
        }
      : {
          "paddle-signature": await signPaddleWebhook(
            body,
            secret ?? GATEWAY_TEST_ENV.GATEWAY_A_SANDBOX_WEBHOOK_SECRET,
            Date.now(),
          ),
        };
  const response = await call(marketplace.app, "POST", `/api/webhooks/${gateway}`, {
    rawBody: body,
    headers: { "content-type": "application/json", ...header },
  });
  if (response.status !== 200) throw new Error(`webhook answered ${response.status}: ${JSON.stringify(response.body)}`);
  const eventId = event.id ?? event.event_id ?? "";
  await eventually(
    async () => {
      const [row] = await db.current.sql<{ processed_at: Date | null; kind: string }[]>`
        select processed_at, kind from webhook_inbox where gateway = ${gateway} and event_id = ${eventId}`;
      return !row || row.kind === "ignored" || row.processed_at !== null;
    },
    5000,
    `event ${eventId} applied`,
  );
}

export async function orderState(db: TestDatabaseHandle, orderId: string) {
  const [order] = await db.current.sql<{ status: string; needs_attention: boolean; attention_reason: string | null }[]>`
    select status, needs_attention, attention_reason from orders where id = ${orderId}`;
  const payments = await db.current.sql<
    { payment_id: string; kind: string; amount: number; tax: number; refunded_amount: number; gateway: string }[]
  >`select payment_id, kind, amount::int, tax::int, refunded_amount::int, gateway from payments
    where order_id = ${orderId} order by created_at, id`;
  const [deliveries] = await db.current.sql<{ n: number }[]>`
    select count(*)::int as n from fulfillment_records where order_id = ${orderId}`;
  return { ...order, payments: [...payments], deliveries: deliveries?.n ?? 0 };
}
