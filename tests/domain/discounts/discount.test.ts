import { describe, expect, test } from "bun:test";
import {
  type DiscountInput,
  type DiscountWithRedemptions,
  validateDiscount,
} from "../../../domain/discounts/discount.ts";
import { discountState, validateDiscountChange } from "../../../domain/discounts/discount-change.ts";

const NOW = new Date("2026-06-01T12:00:00.000Z");
const LAUNCH: DiscountInput = { code: "Launch-25", type: "percent", amount: 2500, duration: "once" };

const pathsOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return ((error as { errors?: { path: string; code: string }[] }).errors ?? []).map((e) => `${e.path} ${e.code}`);
  }
  throw new Error("it was accepted");
};

const stored = (overrides: Partial<DiscountWithRedemptions> = {}): DiscountWithRedemptions => ({
  ...validateDiscount(LAUNCH, NOW, "USD"),
  id: "d-1",
  disabled_at: null,
  created_at: NOW,
  updated_at: NOW,
  redemptions: 0,
  ...overrides,
});

describe("a new discount", () => {
  test("a percentage in basis points, applying to everything, keeps the code as written", () => {
    expect(validateDiscount(LAUNCH, NOW, "USD")).toEqual({
      code: "Launch-25",
      type: "percent",
      amount: 2500,
      currency: null,
      duration: "once",
      duration_in_months: null,
      max_redemptions: null,
      starts_at: null,
      expires_at: null,
      product_ids: [],
      variants: [],
      first_purchase_only: false,
    });
  });

  test("a fixed amount is in the marketplace's currency; repeating needs its months", () => {
    const fixed = validateDiscount(
      { code: "PARTNER", type: "fixed", amount: 500, duration: "repeating", duration_in_months: 2 },
      NOW,
      "EUR",
    );
    expect(fixed).toMatchObject({ currency: "EUR", amount: 500, duration_in_months: 2 });
  });

  test("every problem at once, each at its path", () => {
    expect(
      pathsOf(() =>
        validateDiscount(
          {
            code: "a b",
            type: "percent",
            amount: 10_001,
            duration: "repeating",
            max_redemptions: 0,
            starts_at: "2026-07-01T00:00:00Z",
            expires_at: "2026-06-15T00:00:00Z",
            product_ids: ["not-a-uuid"],
            variants: ["monthly", "monthly", "weekly"],
          },
          NOW,
          "USD",
        ),
      ),
    ).toEqual([
      "/code INVALID_CODE",
      "/amount OUT_OF_RANGE",
      "/duration_in_months OUT_OF_RANGE",
      "/expires_at BEFORE_START",
      "/max_redemptions OUT_OF_RANGE",
      "/product_ids/0 INVALID_VALUE",
      "/variants/1 DUPLICATE",
      "/variants/2 INVALID_VALUE",
    ]);
  });

  test.each([
    [{ ...LAUNCH, amount: 0 }, "/amount OUT_OF_RANGE"],
    [{ ...LAUNCH, amount: 12.5 }, "/amount OUT_OF_RANGE"],
    [{ ...LAUNCH, type: "fixed", amount: 1e12 }, "/amount OUT_OF_RANGE"],
    [{ ...LAUNCH, type: "bogo" }, "/type INVALID_ENUM"],
    [{ ...LAUNCH, duration: "once", duration_in_months: 3 }, "/duration_in_months NOT_ALLOWED"],
    [{ ...LAUNCH, expires_at: "2026-06-01T12:00:00Z" }, "/expires_at IN_THE_PAST"],
    [{ ...LAUNCH, expires_at: "tomorrow" }, "/expires_at INVALID_DATE_TIME"],
    [{ ...LAUNCH, code: "ab" }, "/code INVALID_CODE"],
    [{ ...LAUNCH, code: `-${"a".repeat(10)}` }, "/code INVALID_CODE"],
  ] as const)("%o is refused: %s", (input, problem) => {
    expect(pathsOf(() => validateDiscount(input, NOW, "USD"))).toEqual([problem]);
  });
});

describe("a change", () => {
  test("only what promises no money: the money terms are IMMUTABLE at their paths", () => {
    expect(
      pathsOf(() => validateDiscountChange({ amount: 10, code: "OTHER", max_redemptions: 5 }, stored(), NOW)),
    ).toEqual(["/amount IMMUTABLE", "/code IMMUTABLE"]);
  });

  test("names only the fields given; a limit cannot go below the redemptions made", () => {
    expect(validateDiscountChange({ max_redemptions: 10, variants: ["yearly"] }, stored(), NOW)).toEqual({
      max_redemptions: 10,
      variants: ["yearly"],
    });
    expect(validateDiscountChange({ expires_at: null }, stored(), NOW)).toEqual({ expires_at: null });
    expect(pathsOf(() => validateDiscountChange({ max_redemptions: 2 }, stored({ redemptions: 3 }), NOW))).toEqual([
      "/max_redemptions BELOW_REDEMPTIONS",
    ]);
  });

  test("an expiry already past does not block a change of something else", () => {
    const lapsed = stored({ expires_at: new Date("2026-05-01T00:00:00Z") });
    expect(validateDiscountChange({ max_redemptions: 3 }, lapsed, NOW)).toEqual({ max_redemptions: 3 });
  });
});

test("a discount's state: disabled, expired, used up, scheduled or active, in that order", () => {
  expect(discountState(stored(), NOW)).toBe("active");
  expect(discountState(stored({ starts_at: new Date("2026-07-01T00:00:00Z") }), NOW)).toBe("scheduled");
  expect(discountState(stored({ max_redemptions: 1, redemptions: 1 }), NOW)).toBe("used_up");
  expect(discountState(stored({ expires_at: NOW }), NOW)).toBe("expired");
  expect(discountState(stored({ disabled_at: NOW, expires_at: NOW }), NOW)).toBe("disabled");
});
