import { describe, expect, test } from "bun:test";
import { deriveIdentifiers } from "../../provider-sim/identifiers.ts";
import { createTestSim } from "./harness.ts";

describe("deterministic identifiers", () => {
  test("are a pure function of the order reference, prefixed by kind", () => {
    const ids = deriveIdentifiers("ord_1", "item_1");
    expect(deriveIdentifiers("ord_1", "item_1")).toEqual(ids);
    expect(ids.reference).toMatch(/^ref_[0-9a-f]{24}$/);
    expect(new Set(Object.values(ids)).size).toBe(5);
  });

  test("differ between order items and cannot be forged by moving the separator", () => {
    const ids = deriveIdentifiers("ord_1", "item_1");
    expect(deriveIdentifiers("ord_1", "item_2").reference).not.toBe(ids.reference);
    expect(deriveIdentifiers("ord_1item_1", "").reference).not.toBe(ids.reference);
    expect(deriveIdentifiers("ord_", "1item_1").reference).not.toBe(ids.reference);
  });

  test("a fresh simulator hands out the same identifiers for the same onboarding", async () => {
    const first = (await createTestSim().onboard()).body;
    const second = (await createTestSim().onboard()).body;
    expect(second).toEqual(first);
  });
});
