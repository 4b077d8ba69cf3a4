import { expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RecordedExchange } from "../../provider-sim/gateways/exchange-recorder.ts";
import { exchangeKinds } from "../../scripts/lib/gateway-types/plan.ts";
import { findingLines, summaryLine } from "../../scripts/lib/gateway-types/report.ts";
import { checkExchanges } from "../../scripts/lib/gateway-types/type-check.ts";
import { aLicenseProduct } from "../support/builders/products.ts";
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
  SANDBOX,
  useE2e,
} from "../support/e2e.ts";
import { atSandbox, simControl, subscriptionOf } from "../support/subscriptions.ts";

const db = useTestDatabase();
const e2e = useE2e(db);
const DAY = 86_400;
type Gateway = "gateway_a" | "gateway_b";
const GATEWAYS = ["gateway_a", "gateway_b"] as const;

const paymentsOf = (orderId: string) =>
  db.current.sql<{ payment_id: string }[]>`
    select payment_id from payments where order_id = ${orderId} order by created_at, id`;
const orderStatus = async (orderId: string) =>
  (await db.current.sql<{ status: string }[]>`select status from orders where id = ${orderId}`)[0]?.status;
const deliveryStatus = async (orderId: string) => (await fulfillmentsOf(db, orderId))[0]?.status;

/** What each gateway's part of the lifecycle below must have produced, at the least. */
const EXPECTED: Record<Gateway, string[]> = {
  gateway_a: [
    "POST /transactions request",
    "POST /transactions response",
    "GET /transactions/{id} response",
    "GET /subscriptions/{id} response",
    "POST /subscriptions/{id}/cancel request",
    "POST /subscriptions/{id}/cancel response",
    "POST /adjustments request",
    "POST /adjustments response",
    "GET /event-types response",
    "GET /products response",
    "GET /products/{id} response",
    "POST /products request",
    "POST /products response",
    "GET /prices response",
    "POST /prices request",
    "POST /prices response",
    "GET /transactions/{id} error",
    "GET /transactions/{id}/invoice response",
    "POST /customers/{id}/portal-sessions request",
    "POST /customers/{id}/portal-sessions response",
    "event transaction.completed",
    "event transaction.paid",
    "event transaction.payment_failed",
    "event transaction.past_due",
    "event subscription.updated",
    "event subscription.past_due",
    "event subscription.canceled",
    "event adjustment.created",
  ],
  gateway_b: [
    "POST /v1/checkout/sessions request",
    "POST /v1/checkout/sessions response",
    "GET /v1/subscriptions/{id} response",
    "POST /v1/subscriptions/{id} request",
    "POST /v1/subscriptions/{id} response",
    "GET /v1/invoices/{id} response",
    "GET /v1/invoice_payments response",
    "GET /v1/payment_intents/{id} response",
    "GET /v1/charges/{id} response",
    "GET /v1/disputes/{id} response",
    "POST /v1/refunds request",
    "POST /v1/refunds response",
    "GET /v1/balance response",
    "POST /v1/billing_portal/sessions request",
    "POST /v1/billing_portal/sessions response",
    "GET /v1/products/search response",
    "GET /v1/charges/{id} error",
    "event checkout.session.completed",
    "event customer.subscription.created",
    "event customer.subscription.updated",
    "event customer.subscription.deleted",
    "event invoice.paid",
    "event invoice_payment.paid",
    "event invoice.payment_failed",
    "event charge.refunded",
    "event refund.created",
    "event charge.dispute.created",
    "event charge.dispute.closed",
  ],
};

/** A monthly subscription and a one-off license, bought through `gateway` and delivered. */
async function purchases(gateway: Gateway) {
  const customer = await registerCustomer(e2e);
  const subscribed = await createProduct(e2e, posProductFor(e2e));
  const subscription = await buyAndPay(e2e, customer, [{ product_id: subscribed.id, variant: "monthly" }], gateway);
  const licensed = await createProduct(e2e, aLicenseProduct());
  const license = await buyAndPay(e2e, customer, [{ product_id: licensed.id, variant: "regular" }], gateway);
  await eventually(async () => (await deliveryStatus(subscription.orderId)) === "active", 5000, "delivery");
  const { gateway_subscription_id: subscriptionId } = await subscriptionOf(db, subscription.orderId);
  return { gateway, customer, orderId: subscription.orderId, licenseOrderId: license.orderId, subscriptionId };
}
type Purchases = Awaited<ReturnType<typeof purchases>>;

const advance = (days: number) => simControl(e2e, "/__sim/clock", { advance_seconds: days * DAY });
const paymentCount = (count: number) => (bought: Purchases) =>
  eventually(async () => (await paymentsOf(bought.orderId)).length === count, 5000, `${count} payments`);

async function refunds(bought: Purchases, admin: string) {
  const [, renewal] = await paymentsOf(bought.orderId);
  const partial = await http(e2e.url, "POST", `/api/admin/orders/${bought.orderId}/refund`, {
    token: admin,
    body: { payment_id: renewal?.payment_id, amount: 1000 },
  });
  expect(partial.status).toBe(200);
  const full = await http(e2e.url, "POST", `/api/admin/orders/${bought.licenseOrderId}/refund`, { token: admin });
  expect(full.status).toBe(200);
}

/**
 * A dispute on the recovered payment that the merchant wins (Paddle: a chargeback, then its
 * reversal). Returns the objects it made that only a direct read shows.
 */
async function dispute(bought: Purchases): Promise<string[]> {
  let reads: string[] = [];
  const [, , recovered] = await paymentsOf(bought.orderId);
  if (bought.gateway === "gateway_b") {
    const intent = await atSandbox(e2e, "gateway_b", `/v1/payment_intents/${recovered?.payment_id}`);
    const opened = await simControl(e2e, `/__sim/gateway_b/charges/${intent.latest_charge}/dispute`);
    await eventually(async () => (await orderStatus(bought.orderId)) === "disputed", 5000, "disputed");
    const disputeId = opened.dispute?.id ?? opened.id;
    await simControl(e2e, `/__sim/gateway_b/disputes/${disputeId}/close`, { outcome: "won" });
    reads = [`/v1/charges/${intent.latest_charge}`, `/v1/disputes/${disputeId}`];
  } else {
    await simControl(e2e, `/__sim/gateway_a/transactions/${recovered?.payment_id}/chargeback`);
    await eventually(async () => (await orderStatus(bought.orderId)) === "disputed", 5000, "disputed");
    await simControl(e2e, `/__sim/gateway_a/transactions/${recovered?.payment_id}/chargeback/reverse`);
  }
  await eventually(async () => (await orderStatus(bought.orderId)) !== "disputed", 5000, "dispute closed");
  return reads;
}

/** The gateway calls an admin makes: both connection tests, and a product created and priced at gateway_a. */
async function adminCalls(admin: string, productId: string) {
  for (const gateway of GATEWAYS) {
    const tested = await http(e2e.url, "POST", `/api/admin/${gateway}/test-connection`, { token: admin });
    expect(tested.status).toBe(200);
  }
  const created = await http(e2e.url, "POST", "/api/admin/gateway_a/products/create", {
    token: admin,
    body: { product_id: productId },
  });
  expect(created.status).toBe(200);
  const synced = await http(e2e.url, "PUT", `/api/admin/gateway_a/products/${productId}/sync`, { token: admin });
  expect(synced.status).toBe(200);
}

/** Each payment's invoice or receipt, asked through the marketplace as the account console does, and opened. */
async function documents(bought: Purchases) {
  const { token } = bought.customer;
  for (const orderId of [bought.orderId, bought.licenseOrderId]) {
    const order = await http(e2e.url, "GET", `/api/orders/${orderId}`, { token });
    for (const payment of order.body.payments as { id: string }[]) {
      const link = await http(e2e.url, "GET", `/api/orders/${orderId}/payments/${payment.id}/invoice`, {
        token,
        headers: { accept: "application/json" },
      });
      expect(link.status).toBe(200);
      expect((await fetch(link.body.url)).status).toBe(200);
    }
  }
}

/** A read of what the sandbox does not have, for its error body. */
async function refusedBySandbox(gateway: Gateway, path: string) {
  const key = gateway === "gateway_a" ? SANDBOX.GATEWAY_A_SANDBOX_API_KEY : SANDBOX.GATEWAY_B_SANDBOX_API_KEY;
  const response = await fetch(`${e2e.sim.url}/${gateway}${path}`, { headers: { authorization: `Bearer ${key}` } });
  expect(response.status).toBe(404);
}

/** Objects the marketplace does not read in this lifecycle, read straight from the sandboxes so they are typed too. */
async function sandboxReads(bought: Purchases, reads: readonly string[]) {
  if (bought.gateway === "gateway_a") {
    for (const path of ["/products", "/prices", "/event-types"]) await atSandbox(e2e, "gateway_a", path);
    await refusedBySandbox("gateway_a", "/transactions/txn_01unknown000000000000000000");
    return;
  }
  await refusedBySandbox("gateway_b", "/v1/charges/ch_unknown");
  const subscription = await atSandbox(e2e, "gateway_b", `/v1/subscriptions/${bought.subscriptionId}`);
  const invoice = subscription.latest_invoice as string;
  const search = new URLSearchParams({ query: "metadata['marketplace_product_id']:'none'" });
  for (const path of [
    ...reads,
    "/v1/balance",
    `/v1/invoices/${invoice}?expand[]=payments`,
    `/v1/invoice_payments?invoice=${invoice}`,
    `/v1/products/search?${search}`,
  ]) {
    await atSandbox(e2e, "gateway_b", path);
  }
}

/** The subscriber opens the gateway's portal from the account and enters a new card: the past-due renewal is paid. */
async function newCard(bought: Purchases) {
  const { id } = await subscriptionOf(db, bought.orderId);
  const opened = await http(e2e.url, "POST", `/api/subscriptions/${id}/billing-portal`, {
    token: bought.customer.token,
  });
  expect(opened.status).toBe(200);
  const entered = await fetch(opened.body.url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ card_number: "4242424242424242" }),
  });
  expect(entered.status).toBe(200);
}

async function cancelAtPeriodEnd(bought: Purchases) {
  const mine = await http(e2e.url, "GET", "/api/subscriptions", { token: bought.customer.token });
  const subscription = (mine.body.items as { id: string; order_id?: string }[])[0];
  const cancel = await http(e2e.url, "POST", `/api/subscriptions/${subscription?.id}/cancel`, {
    token: bought.customer.token,
  });
  expect(cancel.body).toMatchObject({ cancel_at_period_end: true });
}

test("every call and event of a full lifecycle through both sandboxes matches the gateways' official types", async () => {
  const started = await fetch(`${e2e.sim.url}/__sim/gateway_exchanges`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ recording: true, clear: true }),
  });
  expect(started.status).toBe(200);

  const bought = await Promise.all(GATEWAYS.map(purchases));
  await advance(32);
  await Promise.all(bought.map(paymentCount(2)));
  await Promise.all(bought.map(documents));
  for (const { gateway, subscriptionId } of bought) {
    await simControl(e2e, `/__sim/${gateway}/subscriptions/${subscriptionId}/next_renewal`, { outcome: "fail" });
  }
  await advance(31);
  for (const { orderId } of bought) {
    await eventually(async () => (await subscriptionOf(db, orderId)).status === "past_due", 5000, "past due");
  }
  await Promise.all(bought.map(newCard));
  await Promise.all(bought.map(paymentCount(3)));
  const admin = await adminToken(e2e);
  await Promise.all(bought.map((each) => refunds(each, admin)));
  const reads = await Promise.all(bought.map(dispute));
  await adminCalls(admin, (await createProduct(e2e, posProductFor(e2e))).id);
  await Promise.all(bought.map((each, index) => sandboxReads(each, reads[index] ?? [])));
  await Promise.all(bought.map(cancelAtPeriodEnd));
  await advance(32);
  for (const { orderId } of bought) {
    await eventually(async () => (await deliveryStatus(orderId)) === "cancelled", 5000, "ended with its period");
  }
  // Events still on their way are recorded when handed over; a moment lets their answers land too.
  await Bun.sleep(200);

  const recorded = (await (await fetch(`${e2e.sim.url}/__sim/gateway_exchanges`)).json()) as {
    exchanges: RecordedExchange[];
    dropped: number;
  };
  expect(recorded.dropped).toBe(0);
  for (const gateway of GATEWAYS) {
    const seen = exchangeKinds(recorded.exchanges, gateway);
    expect(EXPECTED[gateway].filter((kind) => !seen.has(kind))).toEqual([]);
  }

  const report = checkExchanges(recorded.exchanges);
  const findings = findingLines(report.findings);
  // Kept for `bun scripts/check-gateway-types.ts <dir>/exchanges.json` when something does not match.
  if (findings.length > 0) {
    writeFileSync(join(report.directory, "exchanges.json"), JSON.stringify(recorded.exchanges, null, 2));
  } else {
    rmSync(report.directory, { recursive: true });
  }
  expect(findings, `${summaryLine(report)}\n${findings.join("\n")}`).toEqual([]);
}, 90_000);
