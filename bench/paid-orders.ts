import type postgres from "postgres";
import { SIM_TOKEN, WEBHOOK_SECRET } from "./services.ts";

/** Paid point-of-sale orders, inserted directly; the webhooks are what the bench times. */
export async function insertOrders(
  sql: postgres.Sql,
  customerId: string,
  productId: string,
  count: number,
): Promise<string[]> {
  const rows = await sql<{ order_id: string }[]>`
    with o as (
      insert into orders (customer_id, status, currency, subtotal, total, due_today, payment_gateway, gateway_environment, metadata)
      select ${customerId}, 'pending_payment', 'USD', 2900, 2900, 2900, 'gateway_b', 'sandbox', '{}' from generate_series(1, ${count})
      returning id
    )
    insert into order_items (order_id, position, product_id, product_name, variant, payment_type, billing_interval,
                             unit_price, quantity, amount, due_today, delivery_model, fulfillment_driver, options)
    select id, 0, ${productId}, 'Tillpoint POS', 'monthly', 'subscription', 'monthly', 2900, 1, 2900, 2900,
           'saas_multitenant', 'multitenant_saas', '{}' from o
    returning order_id`;
  return rows.map((r) => r.order_id);
}

/**
 * A gateway_b `checkout.session.completed` event paying `orderId`; `ref` names its session
 * (`cs_<ref>`) and payment intent (`pi_<ref>`).
 */
export function checkoutCompletedBody(eventId: string, orderId: string, created: number, ref: string): string {
  return JSON.stringify({
    id: eventId,
    object: "event",
    type: "checkout.session.completed",
    created,
    data: {
      object: {
        id: `cs_${ref}`,
        object: "checkout.session",
        client_reference_id: orderId,
        payment_status: "paid",
        amount_total: 2900,
        currency: "usd",
        payment_intent: `pi_${ref}`,
        metadata: { order_id: orderId },
      },
    },
  });
}

export function paidWebhook(orderId: string) {
  const t = Math.floor(Date.now() / 1000);
  const body = checkoutCompletedBody(`evt_bench_${orderId}`, orderId, t, `bench_${orderId}`);
  const signature = new Bun.CryptoHasher("sha256", WEBHOOK_SECRET).update(`${t}.${body}`).digest("hex");
  return { body, headers: { "content-type": "application/json", "stripe-signature": `t=${t},v1=${signature}` } };
}

export async function send(url: string, orderId: string) {
  const { body, headers } = paidWebhook(orderId);
  const response = await fetch(`${url}/api/webhooks/gateway_b`, { method: "POST", headers, body });
  if (response.status !== 200) throw new Error(`webhook for ${orderId}: ${response.status} ${await response.text()}`);
}

export async function awaitActive(sql: postgres.Sql, ids: readonly string[], timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // One array parameter and a poll every quarter second: the bench's own reads stay a small share
    // of the database's work (the times it reports come from the rows, not from this loop).
    const [row] = await sql<{ n: number }[]>`
      select count(*)::int as n from fulfillment_records
      where order_id = any(${ids as string[]}::uuid[]) and status = 'active'`;
    if ((row?.n ?? 0) >= ids.length) return;
    if (Date.now() > deadline) throw new Error(`only ${row?.n} of ${ids.length} orders active after ${timeoutMs} ms`);
    await Bun.sleep(250);
  }
}

/**
 * Waits until no job is pending or running: the notifications an order's delivery queued run after
 * it, and a figure measured while the previous one's work is still draining would pay for it.
 */
export async function awaitQueueDrained(sql: postgres.Sql, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from jobs where state in ('pending', 'running')`;
    if ((row?.n ?? 0) === 0) return;
    if (Date.now() > deadline) throw new Error(`${row?.n} jobs still queued after ${timeoutMs} ms`);
    await Bun.sleep(50);
  }
}

export async function tenantsAtSimulator(simUrl: string): Promise<number> {
  const response = await fetch(`${simUrl}/api/marketplace/admin/overview`, {
    headers: { authorization: `Bearer ${SIM_TOKEN}` },
  });
  return ((await response.json()) as { tenants_total: number }).tenants_total;
}
