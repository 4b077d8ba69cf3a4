import { describe, expect, test } from "bun:test";
import { aLicenseProduct } from "../support/builders/products.ts";
import { useTestDatabase } from "../support/database.ts";
import {
  adminToken,
  createProduct,
  type E2e,
  eventually,
  fulfillmentsOf,
  http,
  posProductFor,
  registerCustomer,
  SANDBOX,
  useE2e,
} from "../support/e2e.ts";
import { atSandbox, simControl } from "../support/subscriptions.ts";

const db = useTestDatabase();
// Fifty checkouts race from one address for the last redemption: the address limit is not the subject here.
const e2e = useE2e(db, { env: { CHECKOUT_RATE_LIMIT_BURST: "500", AUTH_RATE_LIMIT_BURST: "500" } });
const DAY = 86_400;
const GATEWAYS = ["gateway_a", "gateway_b"] as const;
type Gateway = (typeof GATEWAYS)[number];

async function aDiscount(terms: object) {
  const code = `E2E${crypto.randomUUID().slice(0, 8)}`;
  const created = await http(e2e.url, "POST", "/api/admin/discounts", {
    token: await adminToken(e2e),
    body: { code, ...terms },
  });
  expect(created.status).toBe(201);
  return { id: created.body.id as string, code };
}

const checkout = (token: string, items: object[], gateway: Gateway, code: string) =>
  http(e2e.url, "POST", "/api/checkout/create", {
    token,
    body: { items, payment_gateway: gateway, discount_code: code.toLowerCase() },
  });

async function pay(e2eRun: E2e, gateway: Gateway, sessionId: string) {
  const paid = await fetch(`${e2eRun.sim.url}/checkout/${gateway}/${sessionId}/pay`, { method: "POST" });
  expect(await paid.json()).toMatchObject({ delivered: true, status: 200 });
}

const ledger = (orderId: string) =>
  db.current.sql<{ kind: string; amount: number; discount: number; payment_id: string }[]>`
    select kind, amount::int, discount::int, payment_id from payments where order_id = ${orderId} order by created_at, id`;

const orderRow = async (orderId: string) =>
  (
    await db.current.sql<{ status: string; needs_attention: boolean; attention_reason: string | null }[]>`
      select status, needs_attention, attention_reason from orders where id = ${orderId}`
  )[0];

/** The Paddle discounts made for a code, active or archived. */
async function paddleDiscountsOf(discountId: string) {
  const listed = (await atSandbox(e2e, "gateway_a", "/discounts?per_page=200")) as {
    id: string;
    custom_data: { marketplace_discount_id?: string } | null;
  }[];
  return listed.filter((each) => each.custom_data?.marketplace_discount_id === discountId).map((each) => each.id);
}

/** Whether the gateway still offers the code's coupon or discount. */
async function atTheGateway(gateway: Gateway, discountId: string): Promise<"offered" | "retired"> {
  if (gateway === "gateway_b") {
    const coupon = await fetch(`${e2e.sim.url}/gateway_b/v1/coupons/mkt_${discountId}`, {
      headers: { authorization: `Bearer ${SANDBOX.GATEWAY_B_SANDBOX_API_KEY}` },
    });
    return coupon.status === 404 ? "retired" : "offered";
  }
  const listed = (await atSandbox(e2e, "gateway_a", "/discounts?per_page=200&status=active")) as {
    custom_data: { marketplace_discount_id?: string } | null;
  }[];
  return listed.some((each) => each.custom_data?.marketplace_discount_id === discountId) ? "offered" : "retired";
}

const redemptions = async (discountId: string) =>
  (await http(e2e.url, "GET", `/api/admin/discounts/${discountId}`, { token: await adminToken(e2e) })).body
    .redemptions as number;

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
    await pay(e2e, gateway, opened.body.checkout.session_id);
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
    await pay(e2e, gateway, opened.body.checkout.session_id);
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
    await pay(e2e, gateway, opened.body.checkout.session_id);
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

describe("codes that cannot be used", () => {
  test("a code limited to one product is refused on another, and an expired code is refused", async () => {
    const limitedTo = await createProduct(e2e, aLicenseProduct());
    const other = await createProduct(e2e, aLicenseProduct());
    const limited = await aDiscount({ type: "percent", amount: 1000, duration: "once", product_ids: [limitedTo.id] });
    const customer = await registerCustomer(e2e);
    const refused = await checkout(
      customer.token,
      [{ product_id: other.id, variant: "regular" }],
      "gateway_b",
      limited.code,
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      expect.objectContaining({ path: "/discount_code", code: "DISCOUNT_NOT_APPLICABLE" }),
    ]);
    const fine = await checkout(
      customer.token,
      [{ product_id: limitedTo.id, variant: "regular" }],
      "gateway_b",
      limited.code,
    );
    expect(fine.status).toBe(201);

    const soon = await aDiscount({
      type: "percent",
      amount: 1000,
      duration: "once",
      expires_at: new Date(Date.now() + 1500).toISOString(),
    });
    await Bun.sleep(1600);
    const expired = await checkout(
      customer.token,
      [{ product_id: limitedTo.id, variant: "regular" }],
      "gateway_b",
      soon.code,
    );
    expect(expired.status).toBe(422);
    expect(expired.body.errors[0]).toMatchObject({ path: "/discount_code", code: "DISCOUNT_EXPIRED" });
    const unknown = await checkout(
      customer.token,
      [{ product_id: limitedTo.id, variant: "regular" }],
      "gateway_b",
      "NOSUCHCODE",
    );
    expect(unknown.body.errors[0]).toMatchObject({ path: "/discount_code", code: "DISCOUNT_NOT_FOUND" });
  }, 30_000);

  test.each(GATEWAYS)(
    "checkouts racing with a code %s has not seen yet all open, and it makes one discount",
    async (gateway) => {
      const product = await createProduct(e2e, aLicenseProduct());
      const discount = await aDiscount({ type: "percent", amount: 1000, duration: "once" });
      const buyers = await Promise.all(Array.from({ length: 10 }, () => registerCustomer(e2e)));
      const items = [{ product_id: product.id, variant: "regular" }];
      const answers = await Promise.all(buyers.map((buyer) => checkout(buyer.token, items, gateway, discount.code)));
      expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(201));
      expect(await atTheGateway(gateway, discount.id)).toBe("offered");
      if (gateway === "gateway_a") expect(await paddleDiscountsOf(discount.id)).toHaveLength(1);
    },
    30_000,
  );

  test("50 checkouts racing for the last redemption: exactly one gets it", async () => {
    const product = await createProduct(e2e, aLicenseProduct());
    const discount = await aDiscount({ type: "percent", amount: 5000, duration: "once", max_redemptions: 2 });
    const first = await registerCustomer(e2e);
    const items = [{ product_id: product.id, variant: "regular" }];
    const taken = await checkout(first.token, items, "gateway_b", discount.code);
    await pay(e2e, "gateway_b", taken.body.checkout.session_id);
    await eventually(async () => (await redemptions(discount.id)) === 1, 5000, "the first redemption");

    const racers = await Promise.all(Array.from({ length: 50 }, () => registerCustomer(e2e)));
    const answers = await Promise.all(racers.map((racer) => checkout(racer.token, items, "gateway_b", discount.code)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 422)).toHaveLength(49);
    const usedUp = answers.find((answer) => answer.status === 422);
    expect(usedUp?.body.errors[0]).toMatchObject({ path: "/discount_code", code: "DISCOUNT_USED_UP" });
    const winner = answers.find((answer) => answer.status === 201);
    await pay(e2e, "gateway_b", winner?.body.checkout.session_id);
    await eventually(async () => (await redemptions(discount.id)) === 2, 5000, "the last redemption");
    const [held] = await db.current.sql<{ n: number }[]>`
      select count(*)::int as n from orders where discount_id = ${discount.id}`;
    expect(held?.n).toBe(2);
  }, 60_000);
});
