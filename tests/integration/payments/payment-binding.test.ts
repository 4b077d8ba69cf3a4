import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { aLicenseProduct } from "../../support/builders/products.ts";
import { useTestDatabase } from "../../support/database.ts";
import { GATEWAY_TEST_ENV, localhostOnly } from "../../support/gateway-env.ts";
import { checkoutHandlers, type RecordedCall } from "../../support/gateway-mocks.ts";
import { call } from "../../support/http.ts";
import {
  deliverEvent,
  LIVE_WEBHOOK_SECRETS,
  orderState,
  paddleEvent,
  stripeEvent,
  uniqueId,
} from "../../support/payment-events.ts";

const db = useTestDatabase();
const calls: RecordedCall[] = [];
const refunds: string[] = [];
const server = setupServer(
  ...checkoutHandlers(calls),
  http.post(`${GATEWAY_TEST_ENV.GATEWAY_B_SANDBOX_BASE_URL}/v1/refunds`, async ({ request }) => {
    refunds.push(await request.text());
    return HttpResponse.json({ id: uniqueId("re"), object: "refund", status: "succeeded" });
  }),
);
let marketplace: ReturnType<typeof createTestMarketplace>;
let admin = "";
let customer = "";
let productId = "";

beforeAll(async () => {
  server.listen({ onUnhandledRequest: localhostOnly });
  marketplace = createTestMarketplace(db.current.sql, {}, { env: { ...GATEWAY_TEST_ENV, ...LIVE_WEBHOOK_SECRETS } });
  marketplace.worker.start();
  admin = await tokenFor("admin");
  customer = await tokenFor("customer");
  productId = (await call(marketplace.app, "POST", "/api/admin/products", { token: admin, body: aLicenseProduct() }))
    .body.id;
});
afterAll(async () => {
  await marketplace.worker.stop({ timeoutMs: 2000 });
  server.close();
  await marketplace.close();
});

const as = (method: string, path: string, body?: object) =>
  call(marketplace.app, method, path, { token: admin, ...(body ? { body } : {}) });

/** An order of the 49.00 license, not yet paid. */
async function anOrder(gateway: "gateway_a" | "gateway_b" = "gateway_b") {
  const checkout = await call(marketplace.app, "POST", "/api/checkout/create", {
    token: customer,
    body: { items: [{ product_id: productId, variant: "regular" }], payment_gateway: gateway },
  });
  expect(checkout.status).toBe(201);
  return checkout.body.order_id as string;
}

/** A paid Stripe Checkout Session for `orderId`: 49.00 before tax unless told otherwise. */
const paidSession = (orderId: string, money: { subtotal?: number; tax?: number; total?: number } = {}) => {
  const subtotal = money.subtotal ?? 4900;
  const tax = money.tax ?? 0;
  return stripeEvent("checkout.session.completed", {
    id: uniqueId("cs_test"),
    object: "checkout.session",
    mode: "payment",
    payment_status: "paid",
    client_reference_id: orderId,
    metadata: { order_id: orderId },
    amount_subtotal: subtotal,
    amount_total: money.total ?? subtotal + tax,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: tax },
    currency: "usd",
    payment_intent: uniqueId("pi"),
    invoice: null,
    subscription: null,
  });
};

describe("a payment binds only to an order of its gateway and environment", () => {
  test("a gateway_b payment for a gateway_a order delivers nothing and needs attention", async () => {
    const orderId = await anOrder("gateway_a");
    await deliverEvent(marketplace, db, "gateway_b", paidSession(orderId));
    const state = await orderState(db, orderId);
    expect(state).toMatchObject({ status: "flagged", needs_attention: true, deliveries: 0 });
    expect(state.attention_reason).toContain("paid through gateway_b, but the order was placed for gateway_a");
    expect(state.payments).toEqual([expect.objectContaining({ gateway: "gateway_b", amount: 4900 })]);
  });

  test("an event signed with the live secret does not pay a sandbox order", async () => {
    const orderId = await anOrder();
    const event = paidSession(orderId);
    await deliverEvent(marketplace, db, "gateway_b", event, LIVE_WEBHOOK_SECRETS.GATEWAY_B_LIVE_WEBHOOK_SECRET);
    const state = await orderState(db, orderId);
    expect(state).toMatchObject({ status: "flagged", needs_attention: true, deliveries: 0 });
    expect(state.attention_reason).toContain("signed with the live webhook secret");
  });

  test("a test-mode event signed with the sandbox secret pays the sandbox order", async () => {
    const orderId = await anOrder();
    await deliverEvent(marketplace, db, "gateway_b", paidSession(orderId));
    expect(await orderState(db, orderId)).toMatchObject({ status: "paid", needs_attention: false, deliveries: 1 });
  });
});

describe("one delivery per order, whatever arrives", () => {
  test("a flagged order is not delivered by a later correct payment; approving delivers it once", async () => {
    const orderId = await anOrder();
    await deliverEvent(marketplace, db, "gateway_b", paidSession(orderId, { subtotal: 100 }));
    await deliverEvent(marketplace, db, "gateway_b", paidSession(orderId));
    const flagged = await orderState(db, orderId);
    expect(flagged).toMatchObject({ status: "flagged", needs_attention: true, deliveries: 0 });
    expect(flagged.payments).toHaveLength(2);
    expect(flagged.attention_reason).toContain("a further payment");

    const listed = await as("GET", "/api/admin/orders?needs_attention=true&limit=100");
    expect(listed.body.items.map((order: { id: string }) => order.id)).toContain(orderId);
    const approved = await as("POST", `/api/admin/orders/${orderId}/approve`);
    expect(approved.body).toMatchObject({ status: "paid", needs_attention: false, attention_reason: null });
    expect((await as("POST", `/api/admin/orders/${orderId}/approve`)).body.code).toBe("NOTHING_TO_APPROVE");
    expect(await orderState(db, orderId)).toMatchObject({ status: "paid", deliveries: 1 });
  });

  test("a second distinct payment is recorded and shown, needs attention, and is refunded on its own", async () => {
    const orderId = await anOrder();
    await deliverEvent(marketplace, db, "gateway_b", paidSession(orderId));
    const second = paidSession(orderId);
    await deliverEvent(marketplace, db, "gateway_b", second);
    // The same payment told again under another event id changes nothing.
    await deliverEvent(marketplace, db, "gateway_b", { ...second, id: uniqueId("evt") });
    const state = await orderState(db, orderId);
    expect(state).toMatchObject({ status: "paid", needs_attention: true, deliveries: 1 });
    expect(state.payments).toHaveLength(2);

    const extra = state.payments[1]?.payment_id ?? "";
    refunds.length = 0;
    const refunded = await as("POST", `/api/admin/orders/${orderId}/refund`, { payment_id: extra });
    expect(refunded.status).toBe(200);
    expect(new URLSearchParams(refunds[0]).get("payment_intent")).toBe(extra);
    expect(refunded.body.payments).toEqual([
      expect.objectContaining({ kind: "initial", refunded_amount: 0 }),
      expect.objectContaining({ payment_id: extra, refunded_amount: 4900 }),
    ]);
    expect(refunded.body.status).toBe("partially_refunded");
    expect((await orderState(db, orderId)).deliveries).toBe(1);
    const unknown = await as("POST", `/api/admin/orders/${orderId}/refund`, { payment_id: "pi_not_ours" });
    expect(unknown.body).toMatchObject({ status: 422, code: "PAYMENT_NOT_FOUND" });
  });
});

describe("tax: the payment is compared under the behaviour the order was sold with", () => {
  const setTax = (gateway: string, tax_behavior: string) =>
    as("PUT", `/api/admin/${gateway}/settings`, { tax_behavior });

  test.each(["gateway_a", "gateway_b"] as const)(
    "%s: exclusive compares before tax, inclusive the total",
    async (gateway) => {
      const pay = (orderId: string, subtotal: number, tax: number, total: number) =>
        gateway === "gateway_b"
          ? deliverEvent(marketplace, db, gateway, paidSession(orderId, { subtotal, tax, total }))
          : deliverEvent(
              marketplace,
              db,
              gateway,
              paddleEvent("transaction.completed", {
                id: uniqueId("txn"),
                status: "completed",
                origin: "web",
                custom_data: { order_id: orderId },
                currency_code: "USD",
                subscription_id: null,
                details: {
                  totals: {
                    subtotal: String(subtotal),
                    discount: "0",
                    tax: String(tax),
                    total: String(total),
                    grand_total: String(total),
                  },
                },
              }),
            );
      await setTax(gateway, "exclusive");
      const exclusive = await anOrder(gateway);
      await pay(exclusive, 4900, 1029, 5929);
      expect(await orderState(db, exclusive)).toMatchObject({
        status: "paid",
        payments: [expect.objectContaining({ amount: 5929, tax: 1029 })],
      });
      const misread = await anOrder(gateway);
      await pay(misread, 4049, 851, 4900);
      expect(await orderState(db, misread)).toMatchObject({ status: "flagged", needs_attention: true });

      await setTax(gateway, "inclusive");
      const inclusive = await anOrder(gateway);
      await pay(inclusive, 4049, 851, 4900);
      expect(await orderState(db, inclusive)).toMatchObject({
        status: "paid",
        payments: [expect.objectContaining({ amount: 4900, tax: 851 })],
      });
      const detail = await as("GET", `/api/admin/orders/${inclusive}`);
      expect(detail.body).toMatchObject({ tax_behavior: "inclusive", payments: [{ tax: 851 }] });
      await setTax(gateway, "exclusive");
    },
  );
});
