import { describe, expect, test } from "bun:test";
import { useTestDatabase } from "../support/database.ts";
import {
  adminToken,
  buyAndPay,
  createProduct,
  fulfillmentReaches,
  http,
  posProductFor,
  registerCustomer,
  useE2e,
} from "../support/e2e.ts";
import { parseExposition, sampleOf } from "../support/metrics.ts";

const TOKEN = "metrics-token-for-the-scraper-0123456789";
const db = useTestDatabase();
const e2e = useE2e(db, { env: { METRICS_TOKEN: TOKEN } });

async function scrape() {
  const response = await fetch(`${e2e.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toStartWith("text/plain; version=0.0.4");
  expect(response.headers.get("cache-control")).toBe("no-store");
  return parseExposition(await response.text());
}

describe("/metrics on the public port", () => {
  test("answers only the bearer of METRICS_TOKEN, with a problem otherwise", async () => {
    for (const authorization of [undefined, "Bearer wrong-token-wrong-token", `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const response = await fetch(`${e2e.url}/metrics`, authorization ? { headers: { authorization } } : {});
      expect(response.status).toBe(401);
      expect(response.headers.get("content-type")).toStartWith("application/problem+json");
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect((await response.json()).code).toBe("METRICS_TOKEN_REQUIRED");
    }
  });

  test("a purchase shows in requests, webhooks, upstream calls, fulfillments and the queues", async () => {
    const product = await createProduct(e2e, posProductFor(e2e));
    const customer = await registerCustomer(e2e);
    const { orderId } = await buyAndPay(e2e, customer, [{ product_id: product.id, variant: "monthly" }], "gateway_b");
    await fulfillmentReaches(db, orderId, "active");
    // The cached catalog answers before Elysia; both paths label the route by its template.
    for (let i = 0; i < 3; i++) expect((await http(e2e.url, "GET", `/api/products/${product.slug}`)).status).toBe(200);
    expect((await http(e2e.url, "GET", "/api/no-such-route/12345")).status).toBe(404);
    await db.current.sql`insert into jobs (kind, state) values ('deliver_webhook', 'dead')`;

    const samples = await scrape();
    const requests = "marketplace_http_request_duration_seconds_count";
    expect(sampleOf(samples, requests, { method: "GET", route: "/api/products/:slug", status_class: "2xx" })).toBe(3);
    expect(sampleOf(samples, requests, { method: "POST", route: "/api/checkout/create", status_class: "2xx" })).toBe(1);
    // A path no route matches is counted under one label, whatever the path: no label per URL.
    expect(sampleOf(samples, requests, { method: "GET", route: "unmatched", status_class: "4xx" })).toBe(1);
    expect(samples.some((sample) => sample.labels.route?.includes("12345"))).toBe(false);

    const received = sampleOf(samples, "marketplace_webhooks_received_total", {
      gateway: "gateway_b",
      outcome: "received",
    });
    expect(received).toBeGreaterThanOrEqual(1);
    const sessions = sampleOf(samples, "marketplace_upstream_request_duration_seconds_count", {
      upstream: "gateway_b",
      method: "POST",
      outcome: "ok",
    });
    expect(sessions).toBeGreaterThanOrEqual(1);
    // Settled fulfillments are history, not queue: only those in motion or failed are counted.
    expect(sampleOf(samples, "marketplace_fulfillments", { status: "active" })).toBeUndefined();
    await db.current.sql`update fulfillment_records set status = 'failed' where order_id = ${orderId}`;
    const failed = sampleOf(await scrape(), "marketplace_fulfillments", {
      driver: "multitenant_saas",
      status: "failed",
    });
    expect(failed).toBe(1);
    expect(sampleOf(samples, "marketplace_queue_figures_up")).toBe(1);
    expect(sampleOf(samples, "marketplace_jobs", { kind: "deliver_webhook", state: "dead" })).toBe(1);
    expect(sampleOf(samples, "marketplace_jobs_dead")).toBe(1);
    expect(sampleOf(samples, "marketplace_webhook_inbox_pending")).toBe(0);
    expect(sampleOf(samples, "process_resident_memory_bytes")).toBeGreaterThan(0);
    const sandboxBreaker = { gateway: "gateway_b", environment: "sandbox", state: "closed" };
    expect(sampleOf(samples, "marketplace_gateway_breaker_state", sandboxBreaker)).toBe(1);
  });

  test("a keyed request's replay, and a refusal of its key, are counted under the route's template", async () => {
    const token = await adminToken(e2e);
    const endpoint = await http(e2e.url, "POST", "/api/admin/webhook-endpoints", {
      token,
      body: { url: `${e2e.sim.url}/hooks/metrics`, events: ["order.paid"] },
    });
    const rotate = (key: string) =>
      fetch(`${e2e.url}/api/admin/webhook-endpoints/${endpoint.body.id}/rotate-secret`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "idempotency-key": key },
      });
    const key = crypto.randomUUID();
    expect((await rotate(key)).status).toBe(200);
    expect((await rotate(key)).headers.get("idempotent-replayed")).toBe("true");
    expect((await rotate("not a token")).status).toBe(400);
    const samples = await scrape();
    const route = { method: "POST", route: "/api/admin/webhook-endpoints/:id/rotate-secret" };
    const requests = "marketplace_http_request_duration_seconds_count";
    expect(sampleOf(samples, requests, { ...route, status_class: "2xx" })).toBe(2);
    expect(sampleOf(samples, requests, { ...route, status_class: "4xx" })).toBe(1);
  });

  test("a webhook with a bad signature is counted by its refusal, and nothing is stored", async () => {
    const before = sampleOf(await scrape(), "marketplace_webhooks_received_total", { gateway: "gateway_a" });
    const response = await fetch(`${e2e.url}/api/webhooks/gateway_a`, {
      method: "POST",
      headers: { "content-type": "application/json", "paddle-signature": "ts=1;h1=00" },
      body: JSON.stringify({ event_id: "evt_forged", event_type: "transaction.completed", data: {} }),
    });
    expect(response.status).toBe(400);
    const { code } = await response.json();
    const samples = await scrape();
    expect(before).toBeUndefined();
    expect(sampleOf(samples, "marketplace_webhooks_received_total", { gateway: "gateway_a" })).toBe(1);
    expect(sampleOf(samples, "marketplace_webhooks_received_total", { outcome: code.toLowerCase() })).toBe(1);
  });
});
