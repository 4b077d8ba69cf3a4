import { describe, expect, test } from "bun:test";
import { addIntervals } from "../../provider-sim/tenant.ts";

describe("addIntervals", () => {
  const at = (iso: string) => new Date(iso);

  test("adds calendar months and years, keeping the time of day", () => {
    expect(addIntervals(at("2026-01-15T08:30:00Z"), "monthly", 1).toISOString()).toBe("2026-02-15T08:30:00.000Z");
    expect(addIntervals(at("2026-11-15T08:30:00Z"), "monthly", 3).toISOString()).toBe("2027-02-15T08:30:00.000Z");
    expect(addIntervals(at("2026-01-15T08:30:00Z"), "yearly", 2).toISOString()).toBe("2028-01-15T08:30:00.000Z");
  });

  test("clamps to the last day of a shorter month, counting from the anchor so the day does not drift", () => {
    const anchor = at("2026-01-31T00:00:00Z");
    expect(addIntervals(anchor, "monthly", 1).toISOString()).toBe("2026-02-28T00:00:00.000Z");
    expect(addIntervals(anchor, "monthly", 2).toISOString()).toBe("2026-03-31T00:00:00.000Z");
    expect(addIntervals(at("2028-02-29T00:00:00Z"), "yearly", 1).toISOString()).toBe("2029-02-28T00:00:00.000Z");
  });
});
