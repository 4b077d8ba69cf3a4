import { describe, expect, test } from "bun:test";
import { currencyExponent, formatMinorUnits } from "../../../domain/shared/money.ts";

describe("amounts in minor units, as people read them", () => {
  test.each([
    [4899, "USD", "48.99 USD"],
    [5, "EUR", "0.05 EUR"],
    [1200, "JPY", "1200 JPY"],
    [1234, "KWD", "1.234 KWD"],
    [0, "USD", "0.00 USD"],
  ])("%d %s is %s", (amount, currency, shown) => {
    expect(formatMinorUnits(amount, currency)).toBe(shown);
  });

  test("an unknown code reads with two decimals; a malformed one does not throw", () => {
    expect(currencyExponent("XYZ")).toBe(2);
    expect(formatMinorUnits(100, "not a currency")).toBe("1.00 not a currency");
  });
});
