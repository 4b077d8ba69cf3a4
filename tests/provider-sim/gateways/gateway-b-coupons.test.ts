import { describe, expect, test } from "bun:test";
import { createSimClock } from "../../../provider-sim/clock.ts";
import { createGatewayBCoupons } from "../../../provider-sim/gateways/gateway-b/coupons.ts";

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    const { status, code, param } = error as { status: number; code?: string; param?: string };
    return { status, code, param };
  }
  throw new Error("it was accepted");
};

describe("the gateway_b sandbox's coupons, by Stripe's rules", () => {
  test("a percentage with two decimals, or an amount with its currency; once unless said", () => {
    const coupons = createGatewayBCoupons(createSimClock());
    expect(coupons.create({ percent_off: "12.5" })).toMatchObject({
      object: "coupon",
      percent_off: 12.5,
      amount_off: null,
      currency: null,
      duration: "once",
      valid: true,
      times_redeemed: 0,
    });
    expect(
      coupons.create({ id: "P5", amount_off: "500", currency: "USD", duration: "repeating", duration_in_months: "2" }),
    ).toMatchObject({ id: "P5", amount_off: 500, currency: "usd", duration_in_months: 2 });
  });

  test.each([
    [{ percent_off: "10", amount_off: "100", currency: "usd" }, "percent_off"],
    [{}, "percent_off"],
    [{ percent_off: "0" }, "percent_off"],
    [{ percent_off: "100.001" }, "percent_off"],
    [{ amount_off: "100" }, "currency"],
    [{ percent_off: "10", duration: "repeating" }, "duration_in_months"],
    [{ percent_off: "10", duration: "forever", duration_in_months: "3" }, "duration_in_months"],
    [{ percent_off: "10", redeem_by: "1" }, "redeem_by"],
    [{ percent_off: "10", applies_to: "x" }, "applies_to"],
  ])("%o is a 400 at %s", (form, param) => {
    const coupons = createGatewayBCoupons(createSimClock());
    expect(refusal(() => coupons.create(form))).toMatchObject({ status: 400, param });
  });

  test("an id is unique; a deleted coupon is gone for new redemptions; one past its limit or date is not valid", () => {
    const clock = createSimClock();
    const coupons = createGatewayBCoupons(clock);
    const redeemBy = Math.floor(clock.now().getTime() / 1000) + 3600;
    coupons.create({ id: "LAUNCH", percent_off: "20", max_redemptions: "1", redeem_by: String(redeemBy) });
    expect(refusal(() => coupons.create({ id: "LAUNCH", percent_off: "5" }))).toMatchObject({
      code: "resource_already_exists",
    });
    expect(coupons.redeem("LAUNCH")).toMatchObject({ times_redeemed: 1, valid: false });
    expect(refusal(() => coupons.redeem("LAUNCH"))).toMatchObject({ status: 400, param: "coupon" });
    coupons.create({ id: "LATER", percent_off: "5", redeem_by: String(redeemBy) });
    clock.advance(3600);
    expect(coupons.coupon("LATER").valid).toBe(false);
    expect(coupons.delete("LATER")).toEqual({ id: "LATER", object: "coupon", deleted: true });
    expect(refusal(() => coupons.coupon("LATER"))).toMatchObject({ status: 404, code: "resource_missing" });
    expect(coupons.list(10).data.map((c) => c.id)).toEqual(["LAUNCH"]);
  });
});
