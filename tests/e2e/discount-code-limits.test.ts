import { describe, expect, test } from "bun:test";
import { aLicenseProduct } from "../support/builders/products.ts";
import { useTestDatabase } from "../support/database.ts";
import { discountCodes, GATEWAYS } from "../support/discounts.ts";
import { adminToken, createProduct, eventually, http, registerCustomer, useE2e } from "../support/e2e.ts";

const db = useTestDatabase();
// Fifty checkouts race from one address for the last redemption: the address limit is not the subject here.
const e2e = useE2e(db, { env: { CHECKOUT_RATE_LIMIT_BURST: "500", AUTH_RATE_LIMIT_BURST: "500" } });
const { aDiscount, checkout, pay, ledger, paddleDiscountsOf, atTheGateway, redemptions } = discountCodes(e2e, db);

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

  test("a first-purchase code: quoted to anyone, refused to a signed-in customer who has paid before", async () => {
    const product = await createProduct(e2e, aLicenseProduct());
    const discount = await aDiscount({ type: "percent", amount: 1500, duration: "once", first_purchase_only: true });
    const items = [{ product_id: product.id, variant: "regular" }];
    const quote = (token?: string) =>
      http(e2e.url, "POST", "/api/checkout/calculate", {
        ...(token ? { token } : {}),
        body: { items, discount_code: discount.code },
      });
    const customer = await registerCustomer(e2e);
    expect((await quote()).body.discount_total).toBe(735);
    expect((await quote(customer.token)).body.discount_total).toBe(735);
    const first = await checkout(customer.token, items, "gateway_b", discount.code);
    await pay("gateway_b", first.body.checkout.session_id);
    await eventually(async () => (await ledger(first.body.order_id)).length === 1, 5000, "the first payment");
    expect((await quote()).status).toBe(200);
    const signedIn = await quote(customer.token);
    expect(signedIn.status).toBe(422);
    expect(signedIn.body.errors[0]).toMatchObject({ path: "/discount_code", code: "DISCOUNT_NOT_APPLICABLE" });
    expect((await checkout(customer.token, items, "gateway_b", discount.code)).status).toBe(422);
    // An admin previewing a product is not a buyer: the quote is the anonymous one.
    expect((await quote(await adminToken(e2e))).body.discount_total).toBe(735);
  }, 30_000);

  test("50 checkouts racing for the last redemption: exactly one gets it", async () => {
    const product = await createProduct(e2e, aLicenseProduct());
    const discount = await aDiscount({ type: "percent", amount: 5000, duration: "once", max_redemptions: 2 });
    const first = await registerCustomer(e2e);
    const items = [{ product_id: product.id, variant: "regular" }];
    const taken = await checkout(first.token, items, "gateway_b", discount.code);
    await pay("gateway_b", taken.body.checkout.session_id);
    await eventually(async () => (await redemptions(discount.id)) === 1, 5000, "the first redemption");

    const racers = await Promise.all(Array.from({ length: 50 }, () => registerCustomer(e2e)));
    const answers = await Promise.all(racers.map((racer) => checkout(racer.token, items, "gateway_b", discount.code)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 422)).toHaveLength(49);
    const usedUp = answers.find((answer) => answer.status === 422);
    expect(usedUp?.body.errors[0]).toMatchObject({ path: "/discount_code", code: "DISCOUNT_USED_UP" });
    const winner = answers.find((answer) => answer.status === 201);
    await pay("gateway_b", winner?.body.checkout.session_id);
    await eventually(async () => (await redemptions(discount.id)) === 2, 5000, "the last redemption");
    const [held] = await db.current.sql<{ n: number }[]>`
      select count(*)::int as n from orders where discount_id = ${discount.id}`;
    expect(held?.n).toBe(2);
  }, 60_000);
});
