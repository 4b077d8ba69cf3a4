import { afterEach, describe, expect, test } from "bun:test";
import { couponSession, createCoupon, paidCouponSession } from "./gateway-b-coupon-sessions.ts";
import { createGatewaySim, NOW_UNIX, startMarketplace } from "./harness.ts";

let marketplace: ReturnType<typeof startMarketplace>;
afterEach(() => marketplace?.stop());

function simWithMarketplace() {
  marketplace = startMarketplace();
  return createGatewaySim({ PROVIDER_SIM_MARKETPLACE_URL: marketplace.url });
}

describe("gateway_b checkout with discounts[0][coupon]", () => {
  test("12.5 % off a one-time 19.99 is 2.50: the session, its completed event and its payment all say 17.49", async () => {
    const sim = simWithMarketplace();
    const coupon = await createCoupon(sim, { id: "SPRING", percent_off: "12.5" });
    const created = (await couponSession(sim, [{ amount: 1999 }], coupon.id)).body;
    expect(created).toMatchObject({
      amount_subtotal: 1999,
      amount_total: 1749,
      total_details: { amount_discount: 250, amount_shipping: 0, amount_tax: 0 },
      discounts: [{ coupon: "SPRING", promotion_code: null }],
    });
    const page = await sim.plain("GET", `/checkout/gateway_b/${created.id}`);
    expect(String(page.body)).toContain("Discount (SPRING)");

    const paid = await paidCouponSession(sim, [{ amount: 1999 }], coupon.id);
    const completed = (await marketplace.waitFor(1))[0]?.body;
    expect(completed.type).toBe("checkout.session.completed");
    expect(completed.data.object).toMatchObject({
      amount_subtotal: 1999,
      amount_total: 1749,
      total_details: { amount_discount: 250 },
      discounts: [{ coupon: "SPRING", promotion_code: null }],
    });
    expect((await sim.b("GET", `/payment_intents/${paid.payment_intent}`)).body.amount).toBe(1749);
    expect((await sim.b("GET", "/coupons/SPRING")).body.times_redeemed).toBe(1);
  });

  test("no coupon: discounts is empty and nothing comes off", async () => {
    const sim = simWithMarketplace();
    expect((await couponSession(sim, [{ amount: 1999 }])).body).toMatchObject({
      amount_total: 1999,
      total_details: { amount_discount: 0 },
      discounts: [],
    });
  });

  test("an amount off larger than the subtotal takes it all: nothing to pay, and no payment intent", async () => {
    const sim = simWithMarketplace();
    await createCoupon(sim, { id: "BIG", amount_off: 5000, currency: "usd", duration: "forever" });
    const paid = await paidCouponSession(sim, [{ amount: 2900 }], "BIG");
    expect({ ...paid }).toMatchObject({
      amount_subtotal: 2900,
      amount_total: 0,
      total_details: { amount_discount: 2900 },
      payment_status: "no_payment_required",
      payment_intent: null,
    });
    expect((await sim.b("GET", "/coupons/BIG")).body.times_redeemed).toBe(1);
  });

  test("a coupon that does not exist, or no longer does, is 400 resource_missing at discounts[0][coupon]", async () => {
    const sim = simWithMarketplace();
    const unknown = await couponSession(sim, [{ amount: 1999 }], "NOPE");
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({
      type: "invalid_request_error",
      code: "resource_missing",
      param: "discounts[0][coupon]",
      message: "No such coupon: 'NOPE'",
    });
    await createCoupon(sim, { id: "GONE", percent_off: "10" });
    expect((await sim.b("DELETE", "/coupons/GONE")).status).toBe(200);
    const deleted = await couponSession(sim, [{ amount: 1999 }], "GONE");
    expect(deleted.status).toBe(400);
    expect(deleted.body.error).toMatchObject({ code: "resource_missing", message: "No such coupon: 'GONE'" });
  });

  test("an amount off in another currency is 400; a percentage applies in any currency; one discount at most", async () => {
    const sim = simWithMarketplace();
    await createCoupon(sim, { id: "EUR5", amount_off: 500, currency: "eur" });
    await createCoupon(sim, { id: "TEN", percent_off: "10" });
    const mismatch = await couponSession(sim, [{ amount: 1999 }], "EUR5");
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error).toMatchObject({ type: "invalid_request_error", param: "discounts[0][coupon]" });
    const euros = await couponSession(sim, [{ amount: 1999, currency: "eur" }], "EUR5");
    expect(euros.body).toMatchObject({ currency: "eur", amount_total: 1499 });
    expect((await couponSession(sim, [{ amount: 1999, currency: "eur" }], "TEN")).body.amount_total).toBe(1799);
    const two = await sim.b("POST", "/checkout/sessions", {
      mode: "payment",
      "line_items[0][quantity]": 1,
      "line_items[0][price_data][currency]": "eur",
      "line_items[0][price_data][unit_amount]": 1999,
      "line_items[0][price_data][product_data][name]": "Theme",
      "discounts[0][coupon]": "TEN",
      "discounts[1][coupon]": "EUR5",
    });
    expect(two.status).toBe(400);
    expect(two.body.error.param).toBe("discounts");
  });

  test("each completed checkout redeems once; a coupon out of redemptions or past redeem_by is 400", async () => {
    const sim = simWithMarketplace();
    await createCoupon(sim, { id: "TWICE", percent_off: "10", max_redemptions: 2 });
    const open = (await couponSession(sim, [{ amount: 1000 }], "TWICE")).body;
    expect((await sim.b("GET", "/coupons/TWICE")).body.times_redeemed).toBe(0);
    await paidCouponSession(sim, [{ amount: 1000 }], "TWICE");
    await paidCouponSession(sim, [{ amount: 1000, every: "month" }], "TWICE");
    expect((await sim.b("GET", "/coupons/TWICE")).body).toMatchObject({ times_redeemed: 2, valid: false });
    const used = await couponSession(sim, [{ amount: 1000 }], "TWICE");
    expect(used.status).toBe(400);
    expect(used.body.error).toMatchObject({ type: "invalid_request_error", param: "discounts[0][coupon]" });
    // The session made while it was valid cannot redeem it a third time either.
    expect((await sim.plain("POST", `/checkout/gateway_b/${open.id}/pay`)).status).not.toBe(200);
    expect((await sim.b("GET", "/coupons/TWICE")).body.times_redeemed).toBe(2);

    await createCoupon(sim, { id: "SOON", percent_off: "10", redeem_by: NOW_UNIX + 3600 });
    expect((await couponSession(sim, [{ amount: 1000 }], "SOON")).status).toBe(200);
    await sim.plain("POST", "/__sim/clock", { body: { advance_seconds: 3600 } });
    expect((await couponSession(sim, [{ amount: 1000 }], "SOON")).status).toBe(400);
  });
});

describe("gateway_b tax on a discounted checkout", () => {
  test("tax is on the amount after the discount, for a payment and for a subscription's first invoice", async () => {
    const sim = simWithMarketplace();
    expect((await sim.plain("POST", "/__sim/gateway_b/tax", { body: { rate: 0.2 } })).status).toBe(200);
    await createCoupon(sim, { id: "TEN", percent_off: "10", duration: "forever" });
    const once = await paidCouponSession(sim, [{ amount: 2900 }], "TEN");
    expect({ ...once }).toMatchObject({
      amount_subtotal: 2900,
      total_details: { amount_discount: 290, amount_tax: 522 },
      amount_total: 3132,
    });
    expect((await sim.b("GET", `/payment_intents/${once.payment_intent}`)).body.amount).toBe(3132);

    const monthly = await paidCouponSession(sim, [{ amount: 2900, every: "month" }], "TEN");
    expect(monthly.amount_total).toBe(3132);
    const invoice = (await sim.b("GET", `/invoices/${monthly.invoice}`)).body;
    expect(invoice).toMatchObject({
      subtotal: 2900,
      total_discount_amounts: [{ amount: 290 }],
      total_taxes: [{ amount: 522, taxable_amount: 2610, tax_behavior: "exclusive" }],
      total_excluding_tax: 2610,
      total: 3132,
      amount_paid: 3132,
      lines: { data: [{ amount: 2900, discount_amounts: [{ amount: 290 }], taxes: [{ taxable_amount: 2610 }] }] },
    });
  });
});
