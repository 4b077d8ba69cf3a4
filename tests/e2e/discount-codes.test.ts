import { describe, expect, test } from "bun:test";
import { aLicenseProduct } from "../support/builders/products.ts";
import { useTestDatabase } from "../support/database.ts";
import { discountCodes, GATEWAYS } from "../support/discounts.ts";
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
import { simControl } from "../support/subscriptions.ts";

const db = useTestDatabase();
const e2e = useE2e(db);
const DAY = 86_400;
const { aDiscount, checkout, pay, ledger, orderRow, atTheGateway, redemptions } = discountCodes(e2e, db);

describe.each(GATEWAYS)("discount codes through %s", (gateway) => {
  test("a percent code on a one-time license: quoted, charged, recorded and delivered", async () => {
    const product = await createProduct(e2e, aLicenseProduct());
    const discount = await aDiscount({ type: "percent", amount: 1250, duration: "once" });
    const items = [{ product_id: product.id, variant: "regular" }];
    // 12.5 % of 49.00, rounded half up: 6.13 off.
    const quote = await http(e2e.url, "POST", "/api/checkout/calculate", {
      body: { items, payment_gateway: gateway, discount_code: discount.code },
    });
    expect(quote.status).toBe(200);
    expect(quote.body).toMatchObject({ subtotal: 4900, discount_total: 613, total: 4287, due_today: 4287 });
    expect(quote.body.items[0].discount).toBe(613);
    expect(quote.body.discount).toMatchObject({ code: discount.code, payments: 1, renewal_amount: null });

    const customer = await registerCustomer(e2e);
    const opened = await checkout(customer.token, items, gateway, discount.code);
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({ total: 4287, due_today: 4287, discount_total: 613 });
    await pay(gateway, opened.body.checkout.session_id);
    const orderId = opened.body.order_id as string;
    await eventually(async () => (await fulfillmentsOf(db, orderId))[0]?.status === "active", 5000, "delivery");
    expect(await orderRow(orderId)).toMatchObject({ status: "paid", needs_attention: false });
    const rows = await ledger(orderId);
    expect(rows.map(({ kind, amount, discount }) => ({ kind, amount, discount }))).toEqual([
      { kind: "initial", amount: 4287, discount: 613 },
    ]);
    expect(await redemptions(discount.id)).toBe(1);

    const admin = await http(e2e.url, "GET", `/api/admin/orders/${orderId}`, { token: await adminToken(e2e) });
    expect(admin.body).toMatchObject({ discount_code: discount.code, discount_total: 613, subtotal: 4900 });
    expect(admin.body.payments[0]).toMatchObject({ amount: 4287, discount: 613 });
  }, 30_000);

  test("a fixed code repeating for 2 months: two discounted payments, then the full price, none flagged", async () => {
    const product = await createProduct(e2e, posProductFor(e2e));
    const discount = await aDiscount({ type: "fixed", amount: 1000, duration: "repeating", duration_in_months: 2 });
    const items = [{ product_id: product.id, variant: "monthly" }];
    const customer = await registerCustomer(e2e);
    const opened = await checkout(customer.token, items, gateway, discount.code);
    expect(opened.status).toBe(201);
    expect(opened.body.discount).toMatchObject({ payments: 2, renewal_amount: 2100, renewal_full_amount: 3100 });
    await pay(gateway, opened.body.checkout.session_id);
    const orderId = opened.body.order_id as string;
    await eventually(async () => (await fulfillmentsOf(db, orderId))[0]?.status === "active", 5000, "delivery");

    const mine = async () =>
      (await http(e2e.url, "GET", "/api/subscriptions", { token: customer.token })).body.items[0].discount;
    expect(await mine()).toEqual({ code: discount.code, currency: "USD", renewal_amount: 2100, renewals_left: 1 });
    for (let renewals = 1; renewals <= 3; renewals++) {
      await simControl(e2e, "/__sim/clock", { advance_seconds: 32 * DAY });
      await eventually(async () => (await ledger(orderId)).length === renewals + 1, 8000, `renewal ${renewals}`);
    }
    expect(await mine()).toBeNull();
    const rows = await ledger(orderId);
    expect(rows.map((row) => row.kind)).toEqual(["initial", "renewal", "renewal", "renewal"]);
    expect(rows.map((row) => row.amount)).toEqual([2100, 2100, 3100, 3100]);
    expect(rows.map((row) => row.discount)).toEqual([1000, 1000, 0, 0]);
    expect(await orderRow(orderId)).toMatchObject({ status: "paid", needs_attention: false });
    expect((await fulfillmentsOf(db, orderId))[0]?.status).toBe("active");
    expect(await redemptions(discount.id)).toBe(1);
  }, 60_000);

  test("disabling a code refuses it at checkout and retires it at the gateway", async () => {
    const product = await createProduct(e2e, aLicenseProduct());
    const discount = await aDiscount({ type: "percent", amount: 2000, duration: "once" });
    const items = [{ product_id: product.id, variant: "regular" }];
    const customer = await registerCustomer(e2e);
    expect((await checkout(customer.token, items, gateway, discount.code)).status).toBe(201);
    const disabled = await http(e2e.url, "POST", `/api/admin/discounts/${discount.id}/disable`, {
      token: await adminToken(e2e),
    });
    expect(disabled.status).toBe(200);
    const refused = await checkout(customer.token, items, gateway, discount.code);
    expect(refused.body.errors[0]).toMatchObject({ path: "/discount_code", code: "DISCOUNT_NOT_FOUND" });
    await eventually(async () => (await atTheGateway(gateway, discount.id)) === "retired", 8000, "retired");
  }, 30_000);

  test("a refund of a discounted payment is capped at what was paid, not at the list price", async () => {
    const product = await createProduct(e2e, aLicenseProduct());
    const discount = await aDiscount({ type: "fixed", amount: 900, duration: "once" });
    const customer = await registerCustomer(e2e);
    const opened = await checkout(
      customer.token,
      [{ product_id: product.id, variant: "regular" }],
      gateway,
      discount.code,
    );
    await pay(gateway, opened.body.checkout.session_id);
    const orderId = opened.body.order_id as string;
    await eventually(async () => (await ledger(orderId)).length === 1, 5000, "the payment");
    const [payment] = await ledger(orderId);
    const admin = await adminToken(e2e);
    const tooMuch = await http(e2e.url, "POST", `/api/admin/orders/${orderId}/refund`, {
      token: admin,
      body: { payment_id: payment?.payment_id, amount: 4900 },
    });
    expect(tooMuch.status).toBe(422);
    const whole = await http(e2e.url, "POST", `/api/admin/orders/${orderId}/refund`, {
      token: admin,
      body: { payment_id: payment?.payment_id, amount: 4000 },
    });
    expect(whole.status).toBe(200);
    await eventually(async () => (await orderRow(orderId))?.status === "refunded", 5000, "refunded");
  }, 30_000);
});
