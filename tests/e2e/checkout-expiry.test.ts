import { beforeAll, describe, expect, test } from "bun:test";
import { tokenFor } from "../support/auth.ts";
import { useTestDatabase } from "../support/database.ts";
import { createProduct, eventually, http, posProductFor, registerCustomer, SANDBOX, useE2e } from "../support/e2e.ts";
import { startTcpProxy } from "../support/tcp-proxy.ts";

const EXPIRY_MINUTES = 30;
const db = useTestDatabase();
// The marketplace reaches both sandboxes through a proxy the tests can cut: a gateway outage.
const simAddress = { hostname: "127.0.0.1", port: 9 };
const env: Record<string, string> = { CHECKOUT_EXPIRY_MINUTES: String(EXPIRY_MINUTES), JOB_MAX_ATTEMPTS: "30" };
let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
beforeAll(async () => {
  proxy = await startTcpProxy(simAddress);
  env.GATEWAY_A_SANDBOX_BASE_URL = `http://127.0.0.1:${proxy.port}/gateway_a`;
  env.GATEWAY_B_SANDBOX_BASE_URL = `http://127.0.0.1:${proxy.port}/gateway_b`;
});
let offsetMs = 0;
const e2e = useE2e(db, { env, clock: () => new Date(Date.now() + offsetMs) });
beforeAll(() => {
  simAddress.port = Number(new URL(e2e.sim.url).port);
});

type Gateway = "gateway_a" | "gateway_b";
const GATEWAYS: readonly Gateway[] = ["gateway_a", "gateway_b"];

async function anUnpaidCheckout(gateway: Gateway) {
  // Orders are stamped by the database's clock; the tick's starts even with it for each test.
  offsetMs = 0;
  const product = await createProduct(e2e, posProductFor(e2e));
  const customer = await registerCustomer(e2e);
  const created = await http(e2e.url, "POST", "/api/checkout/create", {
    token: customer.token,
    body: { items: [{ product_id: product.id, variant: "monthly" }], payment_gateway: gateway },
  });
  expect(created.status).toBe(201);
  return { customer, orderId: created.body.order_id as string, sessionId: created.body.checkout.session_id as string };
}

/** The checkout's status as the sandbox itself keeps it. */
async function sandboxStatus(gateway: Gateway, sessionId: string): Promise<string> {
  const path =
    gateway === "gateway_a" ? `/gateway_a/transactions/${sessionId}` : `/gateway_b/v1/checkout/sessions/${sessionId}`;
  const key = gateway === "gateway_a" ? SANDBOX.GATEWAY_A_SANDBOX_API_KEY : SANDBOX.GATEWAY_B_SANDBOX_API_KEY;
  const response = await fetch(`${e2e.sim.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await response.json()) as { status?: string; data?: { status: string } };
  return body.data?.status ?? body.status ?? "unknown";
}

const closedStatus = (gateway: Gateway) => (gateway === "gateway_a" ? "canceled" : "expired");
const payAtSandbox = (gateway: Gateway, sessionId: string) =>
  fetch(`${e2e.sim.url}/checkout/${gateway}/${sessionId}/pay`, { method: "POST" });

async function expireJob(orderId: string) {
  const [job] = await db.current.sql<{ state: string; attempts: number; last_error: string | null }[]>`
    select state, attempts, last_error from jobs where kind = 'expire_checkout' and payload->>'order_id' = ${orderId}`;
  return job;
}

/** Moves the clock past the expiry and runs the minute tick once. */
async function tickPastExpiry() {
  offsetMs += (EXPIRY_MINUTES + 1) * 60_000;
  expect(await e2e.marketplace.tick()).toEqual({ ran: true });
}

describe.each(GATEWAYS)("an unpaid %s checkout", (gateway) => {
  test("expires by the minute tick: the order is expired and its session can no longer be paid", async () => {
    const { customer, orderId, sessionId } = await anUnpaidCheckout(gateway);
    expect(await e2e.marketplace.tick()).toEqual({ ran: true });
    const before = await http(e2e.url, "GET", `/api/orders/${orderId}`, { token: customer.token });
    expect(before.body.status).toBe("pending_payment");

    await tickPastExpiry();
    const after = await http(e2e.url, "GET", `/api/orders/${orderId}`, { token: customer.token });
    expect(after.body.status).toBe("expired");
    await eventually(async () => (await expireJob(orderId))?.state === "done", 5000, "the expire job");
    expect(await sandboxStatus(gateway, sessionId)).toBe(closedStatus(gateway));
    expect((await payAtSandbox(gateway, sessionId)).status).toBe(410);
    const admin = await http(e2e.url, "GET", `/api/admin/orders?status=expired`, { token: await tokenFor("admin") });
    expect(admin.body.items.map((order: { id: string }) => order.id)).toContain(orderId);
  }, 20_000);

  test("whose gateway is down is expired there once the gateway is back; nothing is lost", async () => {
    const { orderId, sessionId } = await anUnpaidCheckout(gateway);
    proxy.cut();
    try {
      await tickPastExpiry();
      const failing = await eventually(
        async () => {
          const job = await expireJob(orderId);
          return job && job.attempts >= 2 && job.state === "pending" && job;
        },
        5000,
        "the expire job to fail twice",
      );
      expect(failing.last_error).toStartWith("The payment gateway");
      expect(await sandboxStatus(gateway, sessionId)).not.toBe(closedStatus(gateway));
    } finally {
      proxy.restore();
    }
    await eventually(
      async () => (await expireJob(orderId))?.state === "done",
      10_000,
      "the expire job after the outage",
    );
    expect(await sandboxStatus(gateway, sessionId)).toBe(closedStatus(gateway));
  }, 20_000);

  test("paid while the order expired is recorded and flagged for an admin", async () => {
    const { orderId, sessionId } = await anUnpaidCheckout(gateway);
    // The gateway is out of reach as the order expires, so the customer can still pay on its page.
    proxy.cut();
    try {
      await tickPastExpiry();
      expect(await sandboxStatus(gateway, sessionId)).not.toBe(closedStatus(gateway));
      expect((await payAtSandbox(gateway, sessionId)).status).toBe(200);
    } finally {
      proxy.restore();
    }
    const admin = await tokenFor("admin");
    const flagged = await eventually(
      async () => {
        const order = await http(e2e.url, "GET", `/api/admin/orders/${orderId}`, { token: admin });
        return order.body.status === "flagged" && order.body;
      },
      10_000,
      "the late payment",
    );
    expect(flagged.needs_attention).toBe(true);
    expect(flagged.attention_reason).toContain("after the order had expired unpaid");
    expect(flagged.payments).toHaveLength(1);
    // The expire job finds the checkout paid at the gateway, or the order flagged: either way it is done.
    await eventually(async () => (await expireJob(orderId))?.state === "done", 10_000, "the expire job");
    expect(await sandboxStatus(gateway, sessionId)).toBe(gateway === "gateway_a" ? "completed" : "complete");
    const [fulfillments] = await db.current.sql<{ count: number }[]>`
      select count(*)::int as count from fulfillment_records where order_id = ${orderId}`;
    expect(fulfillments?.count).toBe(0);
  }, 20_000);
});
