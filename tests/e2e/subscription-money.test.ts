import { expect, test } from "bun:test";
import { useTestDatabase } from "../support/database.ts";
import {
  adminToken,
  buyAndPay,
  createProduct,
  eventually,
  fulfillmentsOf,
  http,
  posProductFor,
  registerCustomer,
  useE2e,
} from "../support/e2e.ts";
import { atSandbox, gatewaySubscription, simControl, tenantStatus } from "../support/subscriptions.ts";

const db = useTestDatabase();
const e2e = useE2e(db);
const DAY = 86_400;

/** A simulator control, or (GET) an object at a gateway sandbox's own API. */
const sim = (method: "GET" | "POST", path: string, body?: object) =>
  method === "POST" ? simControl(e2e, path, body) : atSandbox(e2e, "gateway_b", path.replace("/gateway_b", ""));

const ledger = (orderId: string) =>
  db.current.sql<{ payment_id: string; kind: string; amount: number; refunded: number; lost: number }[]>`
    select payment_id, kind, amount::int, refunded_amount::int as refunded, charged_back_amount::int as lost
    from payments where order_id = ${orderId} order by created_at, id`;

const orderRow = async (orderId: string) =>
  (
    await db.current.sql<{ status: string; needs_attention: boolean }[]>`
    select status, needs_attention from orders where id = ${orderId}`
  )[0];

const subscriptionRow = async (orderId: string) =>
  (
    await db.current.sql<{ status: string; gateway_subscription_id: string; current_period_end: Date }[]>`
    select s.status, s.gateway_subscription_id, s.current_period_end
    from subscriptions s join order_items i on i.id = s.order_item_id where i.order_id = ${orderId}`
  )[0];

const delivery = async (orderId: string) => (await fulfillmentsOf(db, orderId))[0];

/**
 * The first part of both lifecycles: a monthly subscription bought and delivered, renewed by the
 * clock, then a renewal that fails (past due) and is collected again. Three payments by then.
 */
async function throughDunning(gateway: "gateway_a" | "gateway_b") {
  const product = await createProduct(e2e, posProductFor(e2e));
  const customer = await registerCustomer(e2e);
  const { orderId } = await buyAndPay(e2e, customer, [{ product_id: product.id, variant: "monthly" }], gateway);
  await eventually(async () => (await delivery(orderId))?.status === "active", 3000, "delivery");
  const subscriptionId = (await subscriptionRow(orderId))?.gateway_subscription_id ?? "";

  // Renewal by the clock: a month and a day later the sandbox bills the next period.
  await sim("POST", "/__sim/clock", { advance_seconds: 32 * DAY });
  await eventually(async () => (await ledger(orderId)).length === 2, 5000, "the renewal in the ledger");

  // A failed renewal, dunning (past due), then recovery.
  await sim("POST", `/__sim/${gateway}/subscriptions/${subscriptionId}/next_renewal`, { outcome: "fail" });
  await sim("POST", "/__sim/clock", { advance_seconds: 31 * DAY });
  await eventually(async () => (await subscriptionRow(orderId))?.status === "past_due", 5000, "past due");
  expect((await sim("POST", `/__sim/${gateway}/subscriptions/${subscriptionId}/renew`)).outcome).toBe("recovered");
  await eventually(async () => (await subscriptionRow(orderId))?.status === "active", 5000, "recovered");
  await eventually(async () => (await ledger(orderId)).length === 3, 5000, "the recovered payment in the ledger");
  return { orderId, customer, subscriptionId };
}

test("a gateway_b subscription's life under the simulated clock: the ledger, refunds and deliveries add up", async () => {
  const { orderId, subscriptionId } = await throughDunning("gateway_b");

  // A refund of the first renewal, through the admin API and the sandbox.
  const admin = await adminToken(e2e);
  const renewal = (await ledger(orderId))[1];
  const refund = await http(e2e.url, "POST", `/api/admin/orders/${orderId}/refund`, {
    token: admin,
    body: { payment_id: renewal?.payment_id, amount: 1000 },
  });
  expect(refund.status).toBe(200);

  // A dispute on the recovered payment, lost.
  const disputed = (await ledger(orderId))[2];
  const intent = await sim("GET", `/gateway_b/v1/payment_intents/${disputed?.payment_id}`);
  const opened = await sim("POST", `/__sim/gateway_b/charges/${intent.latest_charge}/dispute`);
  await eventually(async () => (await orderRow(orderId))?.status === "disputed", 5000, "a disputed order");
  await eventually(async () => (await delivery(orderId))?.external_status === "suspended", 5000, "suspended");
  const disputeId = opened.dispute?.id ?? opened.id;
  await sim("POST", `/__sim/gateway_b/disputes/${disputeId}/close`, { outcome: "lost" });
  await eventually(async () => (await orderRow(orderId))?.status === "charged_back", 5000, "charged back");
  await eventually(async () => (await delivery(orderId))?.status === "cancelled", 5000, "cancelled delivery");

  // What the ledger says is what the gateway did.
  const rows = await ledger(orderId);
  expect(rows.map((row) => row.kind)).toEqual(["initial", "renewal", "renewal"]);
  expect(rows.map((row) => row.amount)).toEqual([3100, 3100, 3100]);
  expect(rows.map((row) => row.refunded)).toEqual([0, 1000, 0]);
  expect(rows.map((row) => row.lost)).toEqual([0, 0, 3100]);
  const renewalIntent = await sim("GET", `/gateway_b/v1/payment_intents/${renewal?.payment_id}`);
  const renewalCharge = await sim("GET", `/gateway_b/v1/charges/${renewalIntent.latest_charge}`);
  expect(renewalCharge.amount_refunded).toBe(1000);
  const lostCharge = await sim("GET", `/gateway_b/v1/charges/${intent.latest_charge}`);
  expect(lostCharge.disputed).toBe(true);
  expect(await orderRow(orderId)).toMatchObject({ status: "charged_back", needs_attention: true });
  // Nothing more is billed for an order whose money is gone.
  await eventually(
    async () => (await gatewaySubscription(e2e, "gateway_b", subscriptionId)).status === "canceled",
    5000,
    "the gateway subscription ended",
  );
  const [dead] = await db.current.sql<{ n: number }[]>`select count(*)::int as n from jobs where state = 'dead'`;
  expect(dead?.n).toBe(0);
}, 60_000);

test("a gateway_a subscription's life: renewals, dunning, a refunded renewal, a chargeback and its reversal, cancel at period end", async () => {
  const { orderId, customer } = await throughDunning("gateway_a");

  const admin = await adminToken(e2e);
  const renewal = (await ledger(orderId))[1];
  const refund = await http(e2e.url, "POST", `/api/admin/orders/${orderId}/refund`, {
    token: admin,
    body: { payment_id: renewal?.payment_id, amount: 1000 },
  });
  expect(refund.status).toBe(200);

  const charged = (await ledger(orderId))[2];
  await sim("POST", `/__sim/gateway_a/transactions/${charged?.payment_id}/chargeback`);
  await eventually(async () => (await orderRow(orderId))?.status === "disputed", 5000, "a disputed order");
  await eventually(async () => (await delivery(orderId))?.external_status === "suspended", 5000, "suspended");
  await sim("POST", `/__sim/gateway_a/transactions/${charged?.payment_id}/chargeback/reverse`);
  await eventually(async () => (await orderRow(orderId))?.status === "partially_refunded", 5000, "dispute won");
  await eventually(async () => (await delivery(orderId))?.external_status === "active", 5000, "resumed");

  // The customer cancels at the period end: delivery goes on until the clock passes it.
  const mine = await http(e2e.url, "GET", "/api/subscriptions", { token: customer.token });
  const cancel = await http(e2e.url, "POST", `/api/subscriptions/${mine.body.items[0]?.id}/cancel`, {
    token: customer.token,
  });
  expect(cancel.body).toMatchObject({ cancel_at_period_end: true });
  expect((await delivery(orderId))?.status).toBe("active");
  await sim("POST", "/__sim/clock", { advance_seconds: 32 * DAY });
  await eventually(async () => (await delivery(orderId))?.status === "cancelled", 5000, "ended with its period");
  expect(await tenantStatus(e2e, (await delivery(orderId))?.external_reference_id ?? "")).toBe("cancelled");

  const rows = await ledger(orderId);
  expect(rows.map((row) => [row.kind, row.amount, row.refunded, row.lost])).toEqual([
    ["initial", 3100, 0, 0],
    ["renewal", 3100, 1000, 0],
    ["renewal", 3100, 0, 0],
  ]);
  const [dead] = await db.current.sql<{ n: number }[]>`select count(*)::int as n from jobs where state = 'dead'`;
  expect(dead?.n).toBe(0);
}, 60_000);
