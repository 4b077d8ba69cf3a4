import { describe, expect, test } from "bun:test";
import { useTestDatabase } from "../support/database.ts";
import {
  buyAndPay,
  createProduct,
  eventually,
  fulfillmentsOf,
  http,
  posProductFor,
  registerCustomer,
  SANDBOX,
  tenantsAtSimulator,
  useE2e,
} from "../support/e2e.ts";
import { signStripeWebhook } from "../support/webhook-signers.ts";

const db = useTestDatabase();
const e2e = useE2e(db);

describe("a paid webhook becomes a delivered point-of-sale tenant", () => {
  test.each(["gateway_a", "gateway_b"] as const)(
    "through %s: active with workspace and tenant link within 2 s",
    async (gateway) => {
      const product = await createProduct(e2e, posProductFor(e2e));
      const customer = await registerCustomer(e2e);
      const { orderId, paidAt } = await buyAndPay(
        e2e,
        customer,
        [{ product_id: product.id, variant: "monthly" }],
        gateway,
      );
      const [record] = await eventually(
        async () => {
          const records = await fulfillmentsOf(db, orderId);
          return records[0]?.status === "active" ? records : undefined;
        },
        2000,
        "an active fulfillment",
      );
      const elapsed = performance.now() - paidAt;
      expect(elapsed).toBeLessThan(2000);
      expect(record?.external_workspace_url).toMatch(/^http:\/\/(localhost|127\.0\.0\.1):\d+\/workspaces\/ten_/);
      const [link] = await db.current
        .sql`select external_tenant_id from external_tenant_links where fulfillment_record_id = ${record?.id ?? ""}`;
      expect(link?.external_tenant_id).toStartWith("ten_");
      const [order] = await db.current.sql`select status from orders where id = ${orderId}`;
      expect(order?.status).toBe("paid");
      const view = await http(e2e.url, "GET", `/api/fulfillments/${record?.id}`, { token: customer.token });
      expect(view.body).toMatchObject({ status: "active", driver: "multitenant_saas", attempts: 1 });
    },
  );

  test("the same webhook ten times at once gives one payment, one fulfillment and one tenant", async () => {
    const product = await createProduct(e2e, posProductFor(e2e));
    const customer = await registerCustomer(e2e);
    const { orderId, sessionId } = await buyAndPay(
      e2e,
      customer,
      [{ product_id: product.id, variant: "yearly" }],
      "gateway_b",
    );
    const resends = await Promise.all(
      Array.from({ length: 10 }, () =>
        fetch(`${e2e.sim.url}/checkout/gateway_b/${sessionId}/resend`, { method: "POST" }),
      ),
    );
    for (const resend of resends)
      expect((await resend.json()) as object).toMatchObject({ delivered: true, status: 200 });
    await eventually(async () => (await fulfillmentsOf(db, orderId))[0]?.status === "active", 3000, "delivery");
    await Bun.sleep(300);
    const [payments] = await db.current.sql`select count(*)::int as n from payments where order_id = ${orderId}`;
    const [inbox] = await db.current.sql`select count(*)::int as n from webhook_inbox
           where event_type = 'paid' and payload like ${`%${orderId}%`}`;
    expect(payments?.n).toBe(1);
    expect(inbox?.n).toBe(1);
    expect(await fulfillmentsOf(db, orderId)).toHaveLength(1);
    expect(await tenantsAtSimulator(e2e, orderId)).toBe(1);
  });
});

test("an underpaid webhook fulfils nothing and flags the order for an admin", async () => {
  const product = await createProduct(e2e, posProductFor(e2e));
  const customer = await registerCustomer(e2e);
  const checkout = await http(e2e.url, "POST", "/api/checkout/create", {
    token: customer.token,
    body: { items: [{ product_id: product.id, variant: "monthly" }], payment_gateway: "gateway_b" },
  });
  const orderId = checkout.body.order_id as string;
  for (const [amount, currency, eventId] of [
    [checkout.body.due_today - 1, "usd", "evt_underpaid"],
    [checkout.body.due_today, "eur", "evt_wrong_currency"],
  ] as const) {
    const body = JSON.stringify({
      id: `${eventId}_${orderId}`,
      object: "event",
      type: "checkout.session.completed",
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: checkout.body.checkout.session_id,
          object: "checkout.session",
          client_reference_id: orderId,
          metadata: { order_id: orderId },
          payment_status: "paid",
          amount_total: amount,
          currency,
          payment_intent: `pi_${eventId}_${orderId.slice(0, 8)}`,
        },
      },
    });
    const response = await fetch(`${e2e.url}/api/webhooks/gateway_b`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "stripe-signature": await signStripeWebhook(body, SANDBOX.GATEWAY_B_SANDBOX_WEBHOOK_SECRET, Date.now()),
      },
      body,
    });
    expect(response.status).toBe(200);
  }
  const order = await eventually(
    async () => {
      const [row] = await db.current.sql<
        { status: string; needs_attention: boolean; attention_reason: string | null }[]
      >`select status, needs_attention, attention_reason from orders where id = ${orderId}`;
      return row?.status === "flagged" ? row : undefined;
    },
    3000,
    "a flagged order",
  );
  expect(order.needs_attention).toBe(true);
  expect(order.attention_reason).toContain("expected");
  await Bun.sleep(300);
  expect(await fulfillmentsOf(db, orderId)).toHaveLength(0);
  expect(await tenantsAtSimulator(e2e, orderId)).toBe(0);
  const listed = await http(e2e.url, "GET", "/api/admin/orders?status=flagged", {
    token: await (await import("../support/auth.ts")).tokenFor("admin"),
  });
  expect(listed.body.items.map((o: { id: string }) => o.id)).toContain(orderId);
});

test("a bad signature is a 400 and stores nothing", async () => {
  const body = JSON.stringify({
    id: "evt_forged",
    object: "event",
    type: "checkout.session.completed",
    created: 1,
    data: { object: {} },
  });
  const response = await fetch(`${e2e.url}/api/webhooks/gateway_b`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "stripe-signature": await signStripeWebhook(body, "whsec_wrong", Date.now()),
    },
    body,
  });
  expect(response.status).toBe(400);
  expect(response.headers.get("content-type")).toContain("application/problem+json");
  const [row] = await db.current.sql`select count(*)::int as n from webhook_inbox where event_id = 'evt_forged'`;
  expect(row?.n).toBe(0);
});
