import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { aLicenseProduct } from "../../support/builders/products.ts";
import { useTestDatabase } from "../../support/database.ts";
import { GATEWAY_TEST_ENV, localhostOnly } from "../../support/gateway-env.ts";
import { checkoutHandlers, type RecordedCall } from "../../support/gateway-mocks.ts";
import { call, expectProblemShape } from "../../support/http.ts";

const db = useTestDatabase();
const calls: RecordedCall[] = [];
const refunds: { gateway: string; body: string }[] = [];
const server = setupServer(
  ...checkoutHandlers(calls),
  http.post(`${GATEWAY_TEST_ENV.GATEWAY_B_SANDBOX_BASE_URL}/v1/refunds`, async ({ request }) => {
    const body = await request.text();
    refunds.push({ gateway: "gateway_b", body });
    const amount = Number(new URLSearchParams(body).get("amount") ?? 4900);
    return HttpResponse.json({
      id: `re_${refunds.length}`,
      object: "refund",
      amount,
      currency: "usd",
      status: "succeeded",
      payment_intent: "pi_1",
    });
  }),
);
let marketplace: ReturnType<typeof createTestMarketplace>;
let admin = "";
let customer = "";

beforeAll(async () => {
  server.listen({ onUnhandledRequest: localhostOnly });
  marketplace = createTestMarketplace(db.current.sql, {}, { env: GATEWAY_TEST_ENV });
  admin = await tokenFor("admin");
  const registered = await call(marketplace.app, "POST", "/api/auth/register", {
    body: { email: `orders-${crypto.randomUUID()}@example.com`, password: "buyer password", name: "Buyer" },
  });
  customer = registered.body.token;
});
afterAll(async () => {
  server.close();
  await marketplace.close();
});

const as = (method: string, path: string, body?: object) =>
  call(marketplace.app, method, path, { token: admin, ...(body ? { body } : {}) });

/** A checkout through gateway_b whose payment the gateway has confirmed. */
async function aPaidOrder() {
  const product = await as("POST", "/api/admin/products", aLicenseProduct());
  const checkout = await call(marketplace.app, "POST", "/api/checkout/create", {
    token: customer,
    body: { items: [{ product_id: product.body.id, variant: "regular" }], payment_gateway: "gateway_b" },
  });
  const orderId = checkout.body.order_id as string;
  const paymentId = `pi_${crypto.randomUUID().slice(0, 8)}`;
  await db.current.sql`update orders set status = 'paid' where id = ${orderId}`;
  await db.current.sql`
    insert into payments (order_id, gateway, payment_id, amount, currency) values (${orderId}, 'gateway_b', ${paymentId}, 4900, 'USD')`;
  return { orderId, paymentId };
}

describe("admin orders", () => {
  test("list filters by status and gateway; detail shows items and payments", async () => {
    const { orderId } = await aPaidOrder();
    const paid = await as("GET", "/api/admin/orders?status=paid&payment_gateway=gateway_b&limit=100");
    expect(paid.body.items.map((o: { id: string }) => o.id)).toContain(orderId);
    const none = await as("GET", "/api/admin/orders?status=paid&payment_gateway=gateway_a");
    expect(none.body.items.map((o: { id: string }) => o.id)).not.toContain(orderId);
    const detail = await as("GET", `/api/admin/orders/${orderId}`);
    expect(detail.body).toMatchObject({ id: orderId, status: "paid", payment_gateway: "gateway_b", total: 4900 });
    expect(detail.body.items).toHaveLength(1);
    expect(detail.body.payments).toEqual([expect.objectContaining({ amount: 4900, refunded_amount: 0 })]);
    expect(detail.body.metadata).toMatchObject({ payment_gateway: "gateway_b" });
  });

  test("a partial refund, then the rest, through the order's gateway", async () => {
    const { orderId, paymentId } = await aPaidOrder();
    const partial = await as("POST", `/api/admin/orders/${orderId}/refund`, { amount: 1000 });
    expect(partial.body).toMatchObject({
      status: "partially_refunded",
      payments: [expect.objectContaining({ refunded_amount: 1000 })],
    });
    expect(new URLSearchParams(refunds.at(-1)?.body)).toEqual(
      new URLSearchParams({
        payment_intent: paymentId,
        amount: "1000",
        "metadata[order_id]": orderId,
        "metadata[refund_reference]": partial.body.refunds[0].id,
      }),
    );
    const rest = await as("POST", `/api/admin/orders/${orderId}/refund`, {});
    expect(rest.body.status).toBe("refunded");
    expect(rest.body.refunds.map((r: { amount: number }) => r.amount)).toEqual([1000, 3900]);
    expectProblemShape(await as("POST", `/api/admin/orders/${orderId}/refund`, {}), 409, "NOTHING_TO_REFUND");
  });

  test("a refund above what is left is a 422 and reaches no gateway", async () => {
    const { orderId } = await aPaidOrder();
    const before = refunds.length;
    const response = await as("POST", `/api/admin/orders/${orderId}/refund`, { amount: 5000 });
    expectProblemShape(response, 422, "REFUND_EXCEEDS_PAYMENT");
    expect(refunds.length).toBe(before);
  });

  test("an unpaid order has nothing to refund; an unknown one is a 404", async () => {
    expectProblemShape(await as("POST", `/api/admin/orders/${crypto.randomUUID()}/refund`, {}), 404, "ORDER_NOT_FOUND");
    expectProblemShape(await as("GET", "/api/admin/orders/not-a-uuid"), 404, "ORDER_NOT_FOUND");
  });
});
