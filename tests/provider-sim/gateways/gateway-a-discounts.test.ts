import { describe, expect, test } from "bun:test";
import { createSimClock } from "../../../provider-sim/clock.ts";
import { createGatewayADiscounts } from "../../../provider-sim/gateways/gateway-a/discounts.ts";

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    const { status, code, message } = error as { status: number; code: string; message: string };
    return { status, code, message };
  }
  throw new Error("it was accepted");
};

describe("the gateway_a sandbox's discounts, by Paddle's rules", () => {
  test("a percentage as text, or minor units with a currency; recurring for some intervals", () => {
    const discounts = createGatewayADiscounts(createSimClock());
    expect(discounts.create({ amount: "12.5", description: "Launch", type: "percentage" })).toMatchObject({
      id: expect.stringMatching(/^dsc_/),
      status: "active",
      amount: "12.5",
      currency_code: null,
      recur: false,
      enabled_for_checkout: false,
      times_used: 0,
    });
    expect(
      discounts.create({
        amount: "500",
        description: "Partner",
        type: "flat",
        currency_code: "USD",
        recur: true,
        maximum_recurring_intervals: 2,
      }),
    ).toMatchObject({ amount: "500", currency_code: "USD", maximum_recurring_intervals: 2 });
  });

  test.each([
    [{ amount: "0", description: "d", type: "percentage" }, "amount"],
    [{ amount: "100.5", description: "d", type: "percentage" }, "amount"],
    [{ amount: "5.5", description: "d", type: "flat", currency_code: "USD" }, "amount"],
    [{ amount: "500", description: "d", type: "flat" }, "currency_code"],
    [
      { amount: "10", description: "d", type: "percentage", maximum_recurring_intervals: 2 },
      "maximum_recurring_intervals",
    ],
    [{ amount: "10", type: "percentage" }, "description"],
    [{ amount: "10", description: "d", type: "percentage", expires_at: "2000-01-01T00:00:00Z" }, "expires_at"],
    [{ amount: "10", description: "d", type: "bogo" }, "type"],
  ])("%o is refused at %s", (body, field) => {
    const discounts = createGatewayADiscounts(createSimClock());
    const refused = refusal(() => discounts.create(body));
    expect(refused).toMatchObject({ status: 422, code: "invalid_field" });
    expect(refused.message).toContain(field);
  });

  test("a code is unique among active discounts; archived, it stops being used; past its limit it is used", () => {
    const discounts = createGatewayADiscounts(createSimClock());
    const launch = discounts.create({
      amount: "10",
      description: "d",
      type: "percentage",
      code: "LAUNCH",
      usage_limit: 1,
    });
    expect(
      refusal(() => discounts.create({ amount: "5", description: "e", type: "percentage", code: "launch" })),
    ).toMatchObject({
      status: 409,
    });
    expect(discounts.use(launch.id)).toMatchObject({ times_used: 1, status: "used" });
    expect(refusal(() => discounts.use(launch.id)).status).toBe(422);
    const other = discounts.create({ amount: "5", description: "e", type: "percentage", code: "OTHER" });
    expect(discounts.update(other.id, { status: "archived" }).status).toBe("archived");
    expect(refusal(() => discounts.use(other.id)).status).toBe(422);
    expect(refusal(() => discounts.update(other.id, { amount: "50" })).status).toBe(422);
    expect(discounts.create({ amount: "5", description: "f", type: "percentage", code: "OTHER" }).code).toBe("OTHER");
    expect(discounts.list({ codes: ["OTHER"], status: ["active"] })).toHaveLength(1);
  });
});
