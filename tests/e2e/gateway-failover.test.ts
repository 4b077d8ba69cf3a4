import { beforeEach, describe, expect, test } from "bun:test";
import { useTestDatabase } from "../support/database.ts";
import {
  adminToken,
  createProduct,
  eventually,
  fulfillmentsOf,
  http,
  posProductFor,
  registerCustomer,
  useE2e,
} from "../support/e2e.ts";
import { failCheckoutSessions, payAtSandbox } from "../support/gateway-faults.ts";
import { startTcpProxy } from "../support/tcp-proxy.ts";

const db = useTestDatabase();
// A one-second gateway time-out bounds a hang; the breaker stays closed for these single failures.
const e2e = useE2e(db, { env: { GATEWAY_TIMEOUT_SECONDS: "1", GATEWAY_BREAKER_FAILURES: "50" } });

beforeEach(async () => {
  await db.current.sql`delete from gateway_breakers`;
});

/** A product both gateways sell, gateway_a by default. */
const aProduct = () => createProduct(e2e, posProductFor(e2e, { default_payment_gateway: "gateway_a" }));

async function checkout(productId: string, gateway?: "gateway_a" | "gateway_b") {
  const customer = await registerCustomer(e2e);
  const started = performance.now();
  const response = await http(e2e.url, "POST", "/api/checkout/create", {
    token: customer.token,
    body: { items: [{ product_id: productId, variant: "monthly" }], ...(gateway ? { payment_gateway: gateway } : {}) },
  });
  return { ...response, ms: performance.now() - started };
}

const orderRow = async (orderId: string) => {
  const [row] = await db.current.sql<{ status: string; payment_gateway: string; needs_attention: boolean }[]>`
    select status, payment_gateway, needs_attention from orders where id = ${orderId}`;
  return row;
};

const failuresOf = async (gateway: string) => {
  const [row] = await db.current.sql<{ consecutive_failures: number }[]>`
    select consecutive_failures from gateway_breakers where gateway = ${gateway} and environment = 'sandbox'`;
  return row?.consecutive_failures ?? 0;
};

describe("a checkout whose gateway was chosen by default", () => {
  test("goes through gateway_b when gateway_a hangs, within the gateway's time-out", async () => {
    const product = await aProduct();
    await failCheckoutSessions(e2e, "gateway_a", { mode: "hang", count: 1 });
    const opened = await checkout(product.id);
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({
      payment_gateway: "gateway_b",
      failed_over: true,
      failed_over_from: "gateway_a",
    });
    // Bounded by GATEWAY_TIMEOUT_SECONDS (1 s) and gateway_b's own answer.
    expect(opened.ms).toBeLessThan(3000);
    console.info(`failover after a hang: ${Math.round(opened.ms)} ms`);
    const orderId = opened.body.order_id as string;
    expect(await orderRow(orderId)).toMatchObject({ status: "pending_payment", payment_gateway: "gateway_b" });
    expect(await failuresOf("gateway_a")).toBe(1);
    expect((await payAtSandbox(e2e, "gateway_b", opened.body.checkout.session_id)).status).toBe(200);
    await eventually(async () => (await fulfillmentsOf(db, orderId))[0]?.status === "active", 10_000, "delivery");
  }, 20_000);

  test("goes through gateway_b when gateway_a answers 5xx, and a later success there closes the count", async () => {
    const product = await aProduct();
    await failCheckoutSessions(e2e, "gateway_a", { mode: "error", status: 503, count: 1 });
    const opened = await checkout(product.id);
    expect(opened.body).toMatchObject({ payment_gateway: "gateway_b", failed_over: true });
    expect(await failuresOf("gateway_a")).toBe(1);
    const again = await checkout(product.id);
    expect(again.body).toMatchObject({ payment_gateway: "gateway_a", failed_over: false, failed_over_from: null });
    expect(await failuresOf("gateway_a")).toBe(0);
  }, 20_000);

  test("goes through gateway_b when gateway_a refuses connections, and back once it listens again", async () => {
    const product = await aProduct();
    const sim = new URL(e2e.sim.url);
    const proxy = await startTcpProxy({ hostname: sim.hostname, port: Number(sim.port) });
    const admin = await adminToken(e2e);
    const pointAt = (base: string) =>
      http(e2e.url, "PUT", "/api/admin/gateway_a/settings", { token: admin, body: { sandbox: { base_url: base } } });
    expect((await pointAt(`http://127.0.0.1:${proxy.port}/gateway_a`)).status).toBe(200);
    try {
      proxy.cut();
      const opened = await checkout(product.id);
      expect(opened.body).toMatchObject({ payment_gateway: "gateway_b", failed_over: true });
      proxy.restore();
      const back = await checkout(product.id);
      expect(back.body).toMatchObject({ payment_gateway: "gateway_a", failed_over: false });
    } finally {
      proxy.stop();
      await pointAt(`${e2e.sim.url}/gateway_a`);
    }
  }, 20_000);

  test("a late session at the failed gateway, paid after all, cannot pay the order a second time", async () => {
    const product = await aProduct();
    await fetch(`${e2e.sim.url}/__sim/gateway_exchanges`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ recording: true, clear: true }),
    });
    // gateway_a opens the transaction, but only after the marketplace has given up on it.
    await failCheckoutSessions(e2e, "gateway_a", { mode: "delay", delay_ms: 1500, count: 1 });
    const opened = await checkout(product.id);
    expect(opened.body).toMatchObject({ payment_gateway: "gateway_b", failed_over: true });
    const orderId = opened.body.order_id as string;
    await payAtSandbox(e2e, "gateway_b", opened.body.checkout.session_id);
    await eventually(async () => (await fulfillmentsOf(db, orderId))[0]?.status === "active", 10_000, "delivery");
    const late = await eventually(
      async () => {
        const state = await (await fetch(`${e2e.sim.url}/__sim/gateway_exchanges`)).json();
        const call = (
          state.exchanges as { kind: string; gateway: string; method: string; path: string; response: any }[]
        ).find(
          (entry) =>
            entry.kind === "call" &&
            entry.gateway === "gateway_a" &&
            entry.method === "POST" &&
            entry.path.endsWith("/transactions"),
        );
        return call?.response?.data?.id as string | undefined;
      },
      5000,
      "the late transaction",
    );
    expect((await payAtSandbox(e2e, "gateway_a", late)).status).toBe(200);
    const admin = await adminToken(e2e);
    const flagged = await eventually(
      async () => {
        const order = await http(e2e.url, "GET", `/api/admin/orders/${orderId}`, { token: admin });
        return order.body.needs_attention === true && order.body;
      },
      10_000,
      "the late payment",
    );
    expect(flagged.attention_reason).toContain("paid through gateway_a, but the order was placed for gateway_b");
    expect(await fulfillmentsOf(db, orderId)).toHaveLength(1);
  }, 30_000);

  test("a refusal (4xx) neither fails over nor counts", async () => {
    const product = await aProduct();
    await failCheckoutSessions(e2e, "gateway_a", { mode: "error", status: 400, count: 1 });
    const refused = await checkout(product.id);
    expect(refused.status).toBe(502);
    expect(refused.body.code).toBe("GATEWAY_REJECTED");
    expect(await failuresOf("gateway_a")).toBe(0);
  }, 20_000);
});

describe("a checkout at a gateway the customer named", () => {
  test("is a 503 listing the gateways that would work when it is down, and leaves the order checkout_failed", async () => {
    const product = await aProduct();
    await failCheckoutSessions(e2e, "gateway_a", { mode: "error", status: 502, count: 1 });
    const refused = await checkout(product.id, "gateway_a");
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({
      code: "GATEWAY_UNAVAILABLE",
      gateway: "gateway_a",
      alternatives: ["gateway_b"],
    });
    const [order] = await db.current.sql<{ status: string }[]>`
      select status from orders where payment_gateway = 'gateway_a' order by created_at desc limit 1`;
    expect(order?.status).toBe("checkout_failed");
  }, 20_000);
});
