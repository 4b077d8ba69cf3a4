import { beforeAll, describe, expect, test } from "bun:test";
import { OUTGOING_EVENT_TYPES } from "../../application/outgoing-webhooks/ports.ts";
import { aLicenseProduct } from "../support/builders/products.ts";
import { useTestDatabase } from "../support/database.ts";
import {
  adminToken,
  buyAndPay,
  createProduct,
  eventually,
  fulfillmentReaches,
  http,
  posProductFor,
  registerCustomer,
  useE2e,
} from "../support/e2e.ts";
import { SIM_TOKEN } from "../support/provider-sim.ts";
import { licenseOf } from "../support/subscriptions.ts";
import { verifiedPayload, webhookReceiver } from "../support/webhook-receiver.ts";

const db = useTestDatabase();
// Retries tens of milliseconds apart, so a delivery sent twice shows within the test.
const e2e = useE2e(db, { env: { OUTGOING_WEBHOOK_RETRY_SCHEDULE: "10ms,20ms,40ms" } });
const receiver = webhookReceiver();
let secret = "";

beforeAll(async () => {
  db.onTeardown(() => receiver.stop());
  const created = await http(e2e.url, "POST", "/api/admin/webhook-endpoints", {
    token: await adminToken(e2e),
    body: { url: receiver.url, events: OUTGOING_EVENT_TYPES, description: "the shop's CRM" },
  });
  expect(created.status).toBe(201);
  secret = created.body.secret;
});

/** Every verified event the receiver got about one order, by type. */
function eventsOf(orderId: string) {
  return receiver.received
    .map((request) => verifiedPayload(secret, request))
    .filter((event) => event.data.order_id === orderId);
}

const countsOf = (events: { type: string }[]) =>
  events.reduce<Record<string, number>>((counts, event) => {
    counts[event.type] = (counts[event.type] ?? 0) + 1;
    return counts;
  }, {});

describe("a purchase tells the shop's systems, by signed webhook", () => {
  test("paid, then ready: order.paid and fulfillment.ready, each exactly once, verified", async () => {
    const product = await createProduct(e2e, posProductFor(e2e));
    const customer = await registerCustomer(e2e);
    const { orderId } = await buyAndPay(e2e, customer, [{ product_id: product.id, variant: "monthly" }], "gateway_b");
    const record = await fulfillmentReaches(db, orderId, "active");
    await eventually(async () => eventsOf(orderId).length >= 2, 5000, "both webhooks");
    // Anything sent twice would arrive by now: retries here are tens of milliseconds apart.
    await Bun.sleep(500);

    const events = eventsOf(orderId);
    expect(countsOf(events)).toEqual({ "order.paid": 1, "fulfillment.ready": 1 });
    const paid = events.find((event) => event.type === "order.paid");
    const ready = events.find((event) => event.type === "fulfillment.ready");
    expect(paid?.data).toMatchObject({ order_id: orderId, customer_id: customer.id, status: "paid" });
    expect(paid?.data.items).toEqual([expect.objectContaining({ product_id: product.id, variant: "monthly" })]);
    expect(ready?.data).toMatchObject({
      fulfillment_id: record.id,
      order_id: orderId,
      status: "active",
      driver: "multitenant_saas",
      external_workspace_url: record.external_workspace_url,
    });
    for (const event of events) expect(Date.parse(event.timestamp)).not.toBeNaN();
    for (const request of receiver.received) {
      for (const never of [secret.slice(6), SIM_TOKEN]) expect(request.body).not.toContain(never);
    }

    const endpoints = await http(e2e.url, "GET", "/api/admin/webhook-endpoints", { token: await adminToken(e2e) });
    expect(JSON.stringify(endpoints.body)).not.toContain(secret.slice(6));
  });

  test("a delivered license: fulfillment.ready names it but never carries its key", async () => {
    const product = await createProduct(e2e, aLicenseProduct({ is_recurring: true, price_monthly: 900 }));
    const customer = await registerCustomer(e2e);
    const { orderId } = await buyAndPay(e2e, customer, [{ product_id: product.id, variant: "regular" }], "gateway_a");
    const { key, record } = await licenseOf(db, orderId);
    const ready = await eventually(
      async () => eventsOf(orderId).find((event) => event.type === "fulfillment.ready"),
      5000,
      "the ready webhook",
    );
    expect(ready.data).toMatchObject({ fulfillment_id: record.id, driver: "license_download", status: "active" });
    const sent = receiver.received.map((request) => request.body).join("\n");
    expect(sent).not.toContain(key);
    expect(Object.keys(ready.data).filter((name) => /key|token|secret|password|snapshot/i.test(name))).toEqual([]);
  });
});
