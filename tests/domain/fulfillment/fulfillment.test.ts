import { describe, expect, test } from "bun:test";
import { IllegalFulfillmentTransition } from "../../../domain/fulfillment/errors.ts";
import {
  assertTransition,
  canTransition,
  FULFILLMENT_STATUSES,
  type FulfillmentStatus,
  isLive,
} from "../../../domain/fulfillment/fulfillment.ts";

/** The allowed moves, written out by hand so a change to the rules has to change this table too. */
const ALLOWED: Record<FulfillmentStatus, FulfillmentStatus[]> = {
  queued: ["processing", "cancelled"],
  processing: ["active", "awaiting_customer", "manual_pending", "failed", "queued", "cancelled"],
  awaiting_customer: ["processing", "cancelled"],
  manual_pending: ["active", "failed", "cancelled"],
  active: ["cancelled"],
  failed: ["queued", "cancelled"],
  cancelled: [],
};

const pairs = FULFILLMENT_STATUSES.flatMap((from) => FULFILLMENT_STATUSES.map((to) => [from, to] as const));

describe("fulfillment state machine", () => {
  test.each(pairs)("%s -> %s follows the table", (from, to) => {
    const allowed = ALLOWED[from].includes(to);
    expect(canTransition(from, to)).toBe(allowed);
    if (allowed) expect(() => assertTransition(from, to)).not.toThrow();
    else expect(() => assertTransition(from, to)).toThrow(IllegalFulfillmentTransition);
  });

  test("an illegal move is a conflict with a stable code", () => {
    try {
      assertTransition("cancelled", "active");
      throw new Error("expected a rejection");
    } catch (error) {
      expect(error).toMatchObject({ code: "ILLEGAL_FULFILLMENT_TRANSITION", category: "conflict" });
    }
  });

  test("failed and cancelled are not live", () => {
    expect(FULFILLMENT_STATUSES.filter(isLive)).toEqual([
      "queued",
      "processing",
      "active",
      "awaiting_customer",
      "manual_pending",
    ]);
  });
});
