import { describe, expect, test } from "bun:test";
import { aLicenseProduct } from "../support/builders/products.ts";
import { useTestDatabase } from "../support/database.ts";
import {
  buyAndPay,
  createProduct,
  fulfillmentReaches,
  http,
  posProductFor,
  registerCustomer,
  useE2e,
} from "../support/e2e.ts";
import { simControl } from "../support/subscriptions.ts";

const db = useTestDatabase();
const e2e = useE2e(db);

async function paymentOf(orderId: string) {
  const [payment] = await db.current.sql<{ id: string }[]>`select id from payments where order_id = ${orderId}`;
  if (!payment) throw new Error(`no payment for ${orderId}`);
  return payment.id;
}

/** The invoice route as a browser follows it: the answer, unfollowed. */
const invoiceOf = (token: string, orderId: string, paymentId: string) =>
  fetch(`${e2e.url}/api/orders/${orderId}/payments/${paymentId}/invoice`, {
    headers: { authorization: `Bearer ${token}` },
    redirect: "manual",
  });

describe("a payment's invoice or receipt, through the sandboxes", () => {
  test("gateway_a: a 302 to an invoice link that expires after an hour, and a fresh one each time", async () => {
    const customer = await registerCustomer(e2e);
    const product = await createProduct(e2e, posProductFor(e2e));
    const { orderId } = await buyAndPay(e2e, customer, [{ product_id: product.id, variant: "monthly" }], "gateway_a");
    await fulfillmentReaches(db, orderId, "active");
    const paymentId = await paymentOf(orderId);

    const answered = await invoiceOf(customer.token, orderId, paymentId);
    expect(answered.status).toBe(302);
    expect(answered.headers.get("cache-control")).toBe("no-store");
    const link = answered.headers.get("location") ?? "";
    expect(link).toMatch(/^http:\/\/[^/]+\/documents\/gateway_a\/invoices\/txn_\w+\?disposition=inline&expires=\d+$/);
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Paid");

    await simControl(e2e, "/__sim/clock", { advance_seconds: 2 * 3600 });
    expect((await fetch(link)).status).toBe(404);
    const fresh = (await invoiceOf(customer.token, orderId, paymentId)).headers.get("location") ?? "";
    expect(fresh).not.toBe(link);
    expect((await fetch(fresh)).status).toBe(200);
  });

  test("gateway_b: a subscription's payment opens its hosted invoice, a one-off payment its charge's receipt", async () => {
    const customer = await registerCustomer(e2e);
    const subscribed = await createProduct(e2e, posProductFor(e2e));
    const licensed = await createProduct(e2e, aLicenseProduct());
    const subscription = await buyAndPay(
      e2e,
      customer,
      [{ product_id: subscribed.id, variant: "monthly" }],
      "gateway_b",
    );
    const license = await buyAndPay(e2e, customer, [{ product_id: licensed.id, variant: "regular" }], "gateway_b");
    await fulfillmentReaches(db, subscription.orderId, "active");
    await fulfillmentReaches(db, license.orderId, "active");

    const asJson = (orderId: string, paymentId: string) =>
      http(e2e.url, "GET", `/api/orders/${orderId}/payments/${paymentId}/invoice`, {
        token: customer.token,
        headers: { accept: "application/json" },
      });
    const invoice = await asJson(subscription.orderId, await paymentOf(subscription.orderId));
    expect(invoice.status).toBe(200);
    expect(invoice.body.url).toMatch(/^http:\/\/[^/]+\/documents\/gateway_b\/invoices\/in_/);
    const receipt = await asJson(license.orderId, await paymentOf(license.orderId));
    expect(receipt.body.url).toMatch(/^http:\/\/[^/]+\/documents\/gateway_b\/receipts\/ch_/);
    for (const url of [invoice.body.url, receipt.body.url]) expect((await fetch(url)).status).toBe(200);
  });

  test("another customer's order and a payment of another order are 404 problems", async () => {
    const owner = await registerCustomer(e2e);
    const stranger = await registerCustomer(e2e);
    const product = await createProduct(e2e, aLicenseProduct());
    const mine = await buyAndPay(e2e, owner, [{ product_id: product.id, variant: "regular" }], "gateway_b");
    const other = await buyAndPay(e2e, owner, [{ product_id: product.id, variant: "regular" }], "gateway_b");
    await fulfillmentReaches(db, mine.orderId, "active");
    await fulfillmentReaches(db, other.orderId, "active");
    const paymentId = await paymentOf(mine.orderId);
    const path = (orderId: string, id: string) => `/api/orders/${orderId}/payments/${id}/invoice`;
    const theirs = await http(e2e.url, "GET", path(mine.orderId, paymentId), { token: stranger.token });
    expect([theirs.status, theirs.body.code]).toEqual([404, "ORDER_NOT_FOUND"]);
    const crossed = await http(e2e.url, "GET", path(other.orderId, paymentId), { token: owner.token });
    expect([crossed.status, crossed.body.code]).toEqual([404, "PAYMENT_NOT_FOUND"]);
  });
});
