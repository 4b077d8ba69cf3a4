import { beforeAll, describe, expect, test } from "bun:test";
import { aLicenseProduct } from "../support/builders/products.ts";
import { useTestDatabase } from "../support/database.ts";
import { discountCodes } from "../support/discounts.ts";
import {
  adminToken,
  buyAndPay,
  createProduct,
  eventually,
  http,
  posProductFor,
  registerCustomer,
  useE2e,
} from "../support/e2e.ts";
import { atSandbox, simControl } from "../support/subscriptions.ts";

const db = useTestDatabase();
const e2e = useE2e(db);
const { aDiscount, checkout, pay } = discountCodes(e2e, db);
const GATEWAYS = ["gateway_a", "gateway_b"] as const;
const FIGURES = ["gross", "discounts", "tax", "refunds", "charged_back"] as const;

let admin = "";
const today = new Date().toISOString().slice(0, 10);
const orderStatus = async (orderId: string) =>
  (await http(e2e.url, "GET", `/api/admin/orders/${orderId}`, { token: admin })).body.status as string;
const paymentOf = async (orderId: string) =>
  (await http(e2e.url, "GET", `/api/admin/orders/${orderId}`, { token: admin })).body.payments[0];

/**
 * A ledger of known money, both sandboxes taxing at 20 % on prices without tax: a license (49.00)
 * bought with a 10 % code at gateway_a and refunded 10.00; a license at gateway_b lost to a
 * dispute; a monthly subscription (31.00) at gateway_b disputed and won.
 */
beforeAll(async () => {
  admin = await adminToken(e2e);
  for (const gateway of GATEWAYS) await simControl(e2e, `/__sim/${gateway}/tax`, { rate: 0.2 });
  const license = await createProduct(e2e, aLicenseProduct({ name: "Report License" }));
  const service = await createProduct(e2e, posProductFor(e2e, { name: "Report Service" }));
  const customer = await registerCustomer(e2e);

  const code = await aDiscount({ type: "percent", amount: 1000, duration: "once" });
  const discounted = await checkout(
    customer.token,
    [{ product_id: license.id, variant: "regular" }],
    "gateway_a",
    code.code,
  );
  expect(discounted.status).toBe(201);
  await pay("gateway_a", discounted.body.checkout.session_id);
  const refundedOrder = discounted.body.order_id as string;
  await eventually(async () => (await orderStatus(refundedOrder)) === "paid", 5000, "the discounted order paid");
  const refund = await http(e2e.url, "POST", `/api/admin/orders/${refundedOrder}/refund`, {
    token: admin,
    body: { amount: 1000 },
  });
  expect(refund.status).toBe(200);

  const lost = await buyAndPay(e2e, customer, [{ product_id: license.id, variant: "regular" }], "gateway_b");
  const won = await buyAndPay(e2e, customer, [{ product_id: service.id, variant: "monthly" }], "gateway_b");
  for (const [{ orderId }, outcome] of [
    [lost, "lost"],
    [won, "won"],
  ] as const) {
    await eventually(async () => (await orderStatus(orderId)) !== "pending_payment", 5000, "paid");
    const intent = await atSandbox(e2e, "gateway_b", `/v1/payment_intents/${(await paymentOf(orderId)).payment_id}`);
    const opened = await simControl(e2e, `/__sim/gateway_b/charges/${intent.latest_charge}/dispute`);
    await eventually(async () => (await orderStatus(orderId)) === "disputed", 5000, "disputed");
    await simControl(e2e, `/__sim/gateway_b/disputes/${opened.dispute?.id ?? opened.id}/close`, { outcome });
  }
  await eventually(async () => (await orderStatus(lost.orderId)) === "charged_back", 5000, "charged back");
  await eventually(async () => (await orderStatus(won.orderId)) === "paid", 5000, "the won dispute restored");
}, 60_000);

const revenue = (query: string, token = admin) =>
  http(e2e.url, "GET", `/api/admin/reports/revenue?${query}`, { token });

describe("the revenue report", () => {
  test("each figure to the cent, in total, by gateway, by product and in today's interval", async () => {
    const report = await revenue(`from=${today}&to=${today}&interval=day`);
    expect(report.status).toBe(200);
    expect(report.body.ledgers).toHaveLength(1);
    const [usd] = report.body.ledgers;
    expect(usd).toMatchObject({ environment: "sandbox", currency: "USD" });
    // 4410 + 882 tax; 4900 + 980; 3100 + 620.
    const total = {
      payments: 3,
      gross: 14_892,
      discounts: 490,
      tax: 2482,
      refunds: 1000,
      charged_back: 5880,
      net: 8012,
    };
    expect(usd.total).toEqual(total);
    expect(usd.intervals).toEqual([{ start: today, end: expect.any(String), ...total }]);
    expect(usd.by_gateway).toEqual([
      {
        gateway: "gateway_a",
        payments: 1,
        gross: 5292,
        discounts: 490,
        tax: 882,
        refunds: 1000,
        charged_back: 0,
        net: 4292,
      },
      {
        gateway: "gateway_b",
        payments: 2,
        gross: 9600,
        discounts: 0,
        tax: 1600,
        refunds: 0,
        charged_back: 5880,
        net: 3720,
      },
    ]);
    expect(
      usd.by_product.map((p: { product_name: string; gross: number; net: number }) => [p.product_name, p.gross, p.net]),
    ).toEqual([
      ["Report License", 11_172, 4292],
      ["Report Service", 3720, 3720],
    ]);
  });

  test("the totals are the sum of the payments the admin's order list shows for the range", async () => {
    const listed = await http(e2e.url, "GET", "/api/admin/orders?limit=100", { token: admin });
    const payments: Record<string, number>[] = [];
    for (const order of listed.body.items) {
      const details = await http(e2e.url, "GET", `/api/admin/orders/${order.id}`, { token: admin });
      payments.push(...details.body.payments.filter((p: { created_at: string }) => p.created_at.startsWith(today)));
    }
    const report = await revenue(`from=${today}&to=${today}&interval=month`);
    const [usd] = report.body.ledgers;
    expect(usd.total.payments).toBe(payments.length);
    const sum = (field: string) => payments.reduce((total, payment) => total + (payment[field] ?? 0), 0);
    const fields = {
      gross: "amount",
      discounts: "discount",
      tax: "tax",
      refunds: "refunded_amount",
      charged_back: "charged_back_amount",
    };
    for (const figure of FIGURES) expect(usd.total[figure]).toBe(sum(fields[figure]));
  });

  test("a range without payments has empty ledgers; bad queries are refused at their parameter", async () => {
    expect((await revenue("from=2020-01-01&to=2020-01-31")).body).toEqual({
      from: "2020-01-01",
      to: "2020-01-31",
      interval: "day",
      ledgers: [],
    });
    for (const [query, path, code] of [
      ["from=2026-02-30", "/from", "INVALID_DATE"],
      ["to=tomorrow", "/to", "INVALID_DATE"],
      ["from=2026-05-02&to=2026-05-01", "/from", "RANGE_REVERSED"],
      ["from=2020-01-01&to=2026-01-01&interval=day", "/interval", "TOO_MANY_INTERVALS"],
      ["interval=hour", "/interval", undefined],
    ] as const) {
      const refused = await revenue(query);
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ status: 422, code: "VALIDATION_FAILED" });
      expect(refused.body.errors[0]).toMatchObject({ path, ...(code ? { code } : {}) });
    }
  });

  test("admins only; an API key reads it with orders:read and not without", async () => {
    const customer = await registerCustomer(e2e);
    expect((await revenue("", customer.token)).status).toBe(403);
    const keyWith = async (scopes: string[]) =>
      (await http(e2e.url, "POST", "/api/admin/api-keys", { token: admin, body: { name: "BI", scopes } })).body.secret;
    expect((await revenue("", await keyWith(["orders:read"]))).status).toBe(200);
    expect((await revenue("", await keyWith(["catalog:read"]))).status).toBe(403);
    const subscriptions = http(e2e.url, "GET", "/api/admin/reports/subscriptions", {
      token: await keyWith(["orders:read"]),
    });
    expect((await subscriptions).status).toBe(200);
  });
});

describe("the subscriptions report", () => {
  test("counts and MRR now; before the ledger began, nothing", async () => {
    const report = await http(e2e.url, "GET", "/api/admin/reports/subscriptions", { token: admin });
    expect(report.status).toBe(200);
    expect(report.body.environments).toEqual([
      {
        environment: "sandbox",
        counts: { trialing: 0, active: 1, past_due: 0, suspended: 0, cancelled: 0 },
        inferred: 0,
        mrr: [{ currency: "USD", mrr: 3100, new_mrr: 3100, churned_mrr: 0 }],
      },
    ]);
    const before = await http(e2e.url, "GET", "/api/admin/reports/subscriptions?at=2020-01-01", { token: admin });
    expect(before.body).toMatchObject({ at: "2020-01-01T00:00:00.000Z", environments: [] });
    const future = await http(e2e.url, "GET", "/api/admin/reports/subscriptions?at=2999-01-01", { token: admin });
    expect(future.status).toBe(422);
    expect(future.body.errors[0]).toMatchObject({ path: "/at", code: "IN_THE_FUTURE" });
  });
});
