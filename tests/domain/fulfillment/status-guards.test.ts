import { describe, expect, test } from "bun:test";
import { IllegalFulfillmentTransition } from "../../../domain/fulfillment/errors.ts";
import {
  canTransition,
  FULFILLMENT_STATUSES,
  type FulfillmentStatus,
} from "../../../domain/fulfillment/fulfillment.ts";
import { FULFILLMENT_GUARDS, fromOnly, sourcesFor, statusGuard } from "../../../domain/fulfillment/status-guards.ts";

const guards = Object.entries(FULFILLMENT_GUARDS);

describe("fulfillment status guards", () => {
  test.each(guards)("the %s guard allows only moves the state machine allows", (_name, guard) => {
    expect(guard.from.length).toBeGreaterThan(0);
    expect(guard.to.length).toBeGreaterThan(0);
    for (const from of guard.from) {
      for (const to of guard.to) expect([from, to, canTransition(from, to)]).toEqual([from, to, true]);
    }
  });

  test("a guard the table does not allow is refused when it is declared", () => {
    expect(() => statusGuard(["queued", "processing"], ["processing"])).toThrow(IllegalFulfillmentTransition);
    expect(() => statusGuard(["processing"], ["active", "processing"])).toThrow(IllegalFulfillmentTransition);
    for (const from of FULFILLMENT_STATUSES) {
      for (const to of FULFILLMENT_STATUSES) {
        if (canTransition(from, to)) expect(statusGuard([from], [to])).toMatchObject({ from: [from], to: [to] });
        else expect(() => statusGuard([from], [to])).toThrow(IllegalFulfillmentTransition);
      }
    }
  });

  test("the sources of a status are exactly those the table lets become it", () => {
    expect(sourcesFor("cancelled")).toEqual([
      "queued",
      "processing",
      "active",
      "awaiting_customer",
      "manual_pending",
      "failed",
    ]);
    expect(sourcesFor("processing")).toEqual(["queued", "awaiting_customer"]);
    expect(sourcesFor("queued")).toEqual(["processing", "failed"]);
    for (const to of FULFILLMENT_STATUSES) {
      const expected = FULFILLMENT_STATUSES.filter((from: FulfillmentStatus) => canTransition(from, to));
      expect(sourcesFor(to)).toEqual(expected);
    }
  });

  test("a guard narrowed to where a record was read keeps to the guard it narrows", () => {
    expect(fromOnly(FULFILLMENT_GUARDS.cancel, "active")).toMatchObject({ from: ["active"], to: ["cancelled"] });
    expect(() => fromOnly(FULFILLMENT_GUARDS.cancel, "cancelled")).toThrow(IllegalFulfillmentTransition);
    // Allowed by the table, but not by the narrower guard: a job starts only what is queued.
    expect(() => fromOnly(FULFILLMENT_GUARDS.start, "awaiting_customer")).toThrow(IllegalFulfillmentTransition);
  });
});
