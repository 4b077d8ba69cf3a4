import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { aLicenseProduct } from "../../support/builders/products.ts";
import { useTestDatabase } from "../../support/database.ts";
import { eventually } from "../../support/e2e.ts";
import { GATEWAY_TEST_ENV, localhostOnly } from "../../support/gateway-env.ts";
import { checkoutHandlers, type RecordedCall } from "../../support/gateway-mocks.ts";
import { call } from "../../support/http.ts";
import { deliverEvent, orderState, paddleEvent, stripeEvent, uniqueId } from "../../support/payment-events.ts";

const db = useTestDatabase();
const calls: RecordedCall[] = [];
/** Stripe's invoices as the test sets them up: `payments` lists the payment intent that paid each. */
const invoices = new Map<string, string>();
/** What Stripe refunded on each payment intent, as its charge's running total. */
const refundedAtStripe = new Map<string, number>();
/** Stripe's `charge.refunded` about a refund, applied before Stripe answers the refund request. */
let chargeRefundedFirst = false;
const server = setupServer(
  ...checkoutHandlers(calls),
  http.post(`${GATEWAY_TEST_ENV.GATEWAY_B_SANDBOX_BASE_URL}/v1/refunds`, async ({ request }) => {
    const form = new URLSearchParams(await request.text());
    const intent = form.get("payment_intent") ?? "";
    const amount = Number(form.get("amount"));
    const total = (refundedAtStripe.get(intent) ?? 0) + amount;
    refundedAtStripe.set(intent, total);
    if (chargeRefundedFirst) await deliverEvent(marketplace, db, "gateway_b", charge(intent, total, 4900));
    return HttpResponse.json({ id: uniqueId("re"), object: "refund", amount, status: "succeeded" });
  }),
  http.get(`${GATEWAY_TEST_ENV.GATEWAY_B_SANDBOX_BASE_URL}/v1/invoices/:id`, ({ params, request }) => {
    const intent = invoices.get(String(params.id));
    if (!intent) return HttpResponse.json({ error: { type: "invalid_request_error" } }, { status: 404 });
    const expanded = new URL(request.url).searchParams.getAll("expand[]").includes("payments");
    return HttpResponse.json({
      id: params.id,
      object: "invoice",
      ...(expanded
        ? {
            payments: {
              object: "list",
              data: [{ status: "paid", payment: { type: "payment_intent", payment_intent: intent } }],
            },
          }
        : {}),
    });
  }),
);
let marketplace: ReturnType<typeof createTestMarketplace>;
let admin = "";
let customer = "";
const products: Record<string, string> = {};

beforeAll(async () => {
  server.listen({ onUnhandledRequest: localhostOnly });
  marketplace = createTestMarketplace(db.current.sql, {}, { env: { ...GATEWAY_TEST_ENV } });
  marketplace.worker.start();
  admin = await tokenFor("admin");
  customer = await tokenFor("customer");
  for (const [name, product] of [
    ["license", aLicenseProduct()],
    ["subscription", aLicenseProduct({ is_recurring: true, price_monthly: 990, supports_trial: false })],
  ] as const) {
    products[name] = (
      await call(marketplace.app, "POST", "/api/admin/products", { token: admin, body: product })
    ).body.id;
  }
});
afterAll(async () => {
  await marketplace.worker.stop({ timeoutMs: 2000 });
  server.close();
  await marketplace.close();
});

async function anOrder(product: string, variant: string, gateway = "gateway_b") {
  const checkout = await call(marketplace.app, "POST", "/api/checkout/create", {
    token: customer,
    body: { items: [{ product_id: product, variant }], payment_gateway: gateway },
  });
  expect(checkout.status).toBe(201);
  return checkout.body.order_id as string;
}

/** A subscription's first Checkout Session, as Stripe sends it: no payment intent, an invoice. */
async function aPaidSubscription() {
  const orderId = await anOrder(products.subscription ?? "", "monthly");
  const invoice = uniqueId("in");
  const intent = uniqueId("pi");
  const subscription = uniqueId("sub");
  invoices.set(invoice, intent);
  await deliverEvent(
    marketplace,
    db,
    "gateway_b",
    stripeEvent("checkout.session.completed", {
      id: uniqueId("cs_test"),
      object: "checkout.session",
      mode: "subscription",
      payment_status: "paid",
      client_reference_id: orderId,
      amount_subtotal: 990,
      amount_total: 990,
      currency: "usd",
      payment_intent: null,
      invoice,
      subscription,
    }),
  );
  return { orderId, invoice, intent, subscription };
}

function charge(intent: string, refunded: number, amount = 990) {
  return stripeEvent("charge.refunded", {
    id: uniqueId("ch"),
    object: "charge",
    payment_intent: intent,
    amount,
    amount_refunded: refunded,
    currency: "usd",
    refunded: refunded === amount,
    metadata: {},
  });
}

/** A license bought at gateway_b for 4900, paid, and delivered. */
async function aDeliveredLicense() {
  const orderId = await anOrder(products.license ?? "", "regular");
  const intent = uniqueId("pi");
  await deliverEvent(
    marketplace,
    db,
    "gateway_b",
    stripeEvent("checkout.session.completed", {
      id: uniqueId("cs_test"),
      mode: "payment",
      payment_status: "paid",
      client_reference_id: orderId,
      amount_total: 4900,
      currency: "usd",
      payment_intent: intent,
    }),
  );
  const record = await eventually(async () => {
    const [row] = await db.current.sql<
      { status: string }[]
    >`select status from fulfillment_records where order_id = ${orderId}`;
    return row?.status === "active" ? row : undefined;
  });
  expect(record.status).toBe("active");
  return { orderId, intent };
}

describe("a Stripe subscription's payments, found again by later events", () => {
  test("the first payment is booked under the payment intent behind the session's invoice", async () => {
    const { orderId, invoice, intent } = await aPaidSubscription();
    const [payment] = await db.current.sql`
      select payment_id, invoice_id, payment_intent_id, kind from payments where order_id = ${orderId}`;
    expect(payment).toEqual({ payment_id: intent, invoice_id: invoice, payment_intent_id: intent, kind: "initial" });
    await deliverEvent(marketplace, db, "gateway_b", charge(intent, 400));
    expect(await orderState(db, orderId)).toMatchObject({
      status: "partially_refunded",
      payments: [expect.objectContaining({ refunded_amount: 400 })],
    });
  });

  test("a renewal is booked as kind renewal, and a refund of it applies to it alone", async () => {
    const { orderId, subscription } = await aPaidSubscription();
    const invoice = uniqueId("in");
    const intent = uniqueId("pi");
    invoices.set(invoice, intent);
    await deliverEvent(
      marketplace,
      db,
      "gateway_b",
      stripeEvent("invoice.paid", {
        id: invoice,
        object: "invoice",
        billing_reason: "subscription_cycle",
        parent: { subscription_details: { subscription, metadata: { order_id: orderId } } },
        amount_paid: 990,
        total_excluding_tax: 990,
        total_taxes: [],
        currency: "usd",
        lines: { data: [{ period: { start: 1780000000, end: 1782600000 } }] },
      }),
    );
    await deliverEvent(marketplace, db, "gateway_b", charge(intent, 990));
    const state = await orderState(db, orderId);
    expect(state.payments).toEqual([
      expect.objectContaining({ kind: "initial", refunded_amount: 0 }),
      expect.objectContaining({ kind: "renewal", payment_id: intent, refunded_amount: 990 }),
    ]);
    expect(state.status).toBe("partially_refunded");
  });

  test("a refund naming no known payment puts its order before a person instead of dying", async () => {
    const orderId = await anOrder(products.license ?? "", "regular");
    await deliverEvent(
      marketplace,
      db,
      "gateway_b",
      stripeEvent("charge.refunded", {
        id: uniqueId("ch"),
        payment_intent: uniqueId("pi"),
        amount_refunded: 100,
        currency: "usd",
        metadata: { order_id: orderId },
      }),
    );
    const state = await orderState(db, orderId);
    expect(state.needs_attention).toBe(true);
    expect(state.attention_reason).toContain("matches no payment in the ledger");
  });
});

describe("an admin's refund at gateway_b and Stripe's charge.refunded about it", () => {
  // Events are kept only while an endpoint listens for them.
  beforeAll(async () => {
    await db.current.sql`
      insert into webhook_endpoints (url, events, secret_iv, secret_ciphertext)
      values ('http://127.0.0.1:9/hooks', '{order.refunded}', '\\x00', '\\x00')`;
  });

  const refund = (orderId: string, amount: number) =>
    call(marketplace.app, "POST", `/api/admin/orders/${orderId}/refund`, { token: admin, body: { amount } });

  /** The ledger, the refunds recorded by id, the order.refunded amounts told, and the delivery. */
  async function refundsOf(orderId: string) {
    const [payment] = await db.current.sql<{ refunded: number; refunds: number }[]>`
      select p.refunded_amount::int as refunded, (select count(*)::int from refunds r where r.payment_id = p.id) as refunds
      from payments p where p.order_id = ${orderId}`;
    const told = await db.current.sql<{ amount: number }[]>`
      select (data->'refund'->>'amount')::int as amount from outgoing_events
      where type = 'order.refunded' and data->>'order_id' = ${orderId} order by created_at, id`;
    const [delivery] = await db.current.sql<{ status: string }[]>`
      select status from fulfillment_records where order_id = ${orderId}`;
    return { ...payment, told: told.map((row) => row.amount), delivery: delivery?.status };
  }

  test.each([
    ["before", true],
    ["after", false],
  ])("applied %s the admin's record of it: counted once, told once", async (_, first) => {
    const { orderId, intent } = await aDeliveredLicense();
    chargeRefundedFirst = first;
    try {
      expect((await refund(orderId, 2450)).status).toBe(200);
    } finally {
      chargeRefundedFirst = false;
    }
    if (!first) await deliverEvent(marketplace, db, "gateway_b", charge(intent, 2450, 4900));
    expect(await refundsOf(orderId)).toEqual({ refunded: 2450, refunds: 1, told: [2450], delivery: "active" });
    expect((await orderState(db, orderId)).status).toBe("partially_refunded");
  });

  test("two refunds at once, each told by Stripe's running total before it is recorded, both count", async () => {
    const { orderId } = await aDeliveredLicense();
    chargeRefundedFirst = true;
    try {
      const answers = await Promise.all([refund(orderId, 1000), refund(orderId, 1500)]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    } finally {
      chargeRefundedFirst = false;
    }
    const { told, ...ledger } = await refundsOf(orderId);
    expect(ledger).toEqual({ refunded: 2500, refunds: 2, delivery: "active" });
    expect(told.reduce((sum, amount) => sum + amount, 0)).toBe(2500);
  });
});

describe("disputes", () => {
  const dispute = (id: string, intent: string, type: string, status: string) =>
    stripeEvent(type, {
      id,
      object: "dispute",
      charge: uniqueId("ch"),
      payment_intent: intent,
      amount: 4900,
      currency: "usd",
      status,
    });

  const deliveryStatus = async (orderId: string) =>
    eventually(async () => {
      const [row] = await db.current.sql<{ status: string; external_status: string | null }[]>`
        select status, external_status from fulfillment_records where order_id = ${orderId}`;
      return row;
    });

  test("opened: disputed, needs attention, delivery suspended; won: paid again and resumed", async () => {
    const { orderId, intent } = await aDeliveredLicense();
    const id = uniqueId("dp");
    await deliverEvent(marketplace, db, "gateway_b", dispute(id, intent, "charge.dispute.created", "needs_response"));
    const opened = await orderState(db, orderId);
    expect(opened).toMatchObject({ status: "disputed", needs_attention: true });
    expect(opened.attention_reason).toContain(`dispute ${id}`);
    await eventually(async () => (await deliveryStatus(orderId)).external_status === "suspended");

    await deliverEvent(marketplace, db, "gateway_b", dispute(id, intent, "charge.dispute.closed", "won"));
    expect((await orderState(db, orderId)).status).toBe("paid");
    await eventually(async () => (await deliveryStatus(orderId)).external_status !== "suspended");
  });

  test("lost: charged back in the ledger and the delivery cancelled", async () => {
    const { orderId, intent } = await aDeliveredLicense();
    const id = uniqueId("dp");
    await deliverEvent(marketplace, db, "gateway_b", dispute(id, intent, "charge.dispute.created", "needs_response"));
    await deliverEvent(marketplace, db, "gateway_b", dispute(id, intent, "charge.dispute.closed", "lost"));
    expect((await orderState(db, orderId)).status).toBe("charged_back");
    const [payment] = await db.current
      .sql`select charged_back_amount::int as lost from payments where order_id = ${orderId}`;
    expect(payment).toEqual({ lost: 4900 });
    await eventually(async () => (await deliveryStatus(orderId)).status === "cancelled");
  });

  test("gateway_a: an approved chargeback adjustment disputes the order", async () => {
    const orderId = await anOrder(products.license ?? "", "regular", "gateway_a");
    const txn = uniqueId("txn");
    await deliverEvent(
      marketplace,
      db,
      "gateway_a",
      paddleEvent("transaction.completed", {
        id: txn,
        origin: "web",
        custom_data: { order_id: orderId },
        currency_code: "USD",
        details: { totals: { subtotal: "4900", discount: "0", tax: "0", total: "4900", grand_total: "4900" } },
      }),
    );
    await deliverEvent(
      marketplace,
      db,
      "gateway_a",
      paddleEvent("adjustment.created", {
        id: uniqueId("adj"),
        action: "chargeback",
        status: "approved",
        transaction_id: txn,
        totals: { total: "4900", currency_code: "USD" },
      }),
    );
    expect(await orderState(db, orderId)).toMatchObject({ status: "disputed", needs_attention: true });
  });
});
