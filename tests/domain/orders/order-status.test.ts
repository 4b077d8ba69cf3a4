import { describe, expect, test } from "bun:test";
import { OrderTransitionRefused } from "../../../domain/orders/errors.ts";
import {
  canTake,
  nextOrderStatus,
  ORDER_MOVES,
  ORDER_STATUSES,
  type OrderEvent,
  sourcesFor,
  targetOf,
} from "../../../domain/orders/order-status.ts";

const EVENTS = Object.keys(ORDER_MOVES) as OrderEvent[];

describe("the order state machine", () => {
  test.each([
    ["pending_payment", "paid", "paid"],
    ["checkout_failed", "paid", "paid"],
    ["pending_payment", "flagged", "flagged"],
    ["flagged", "approved", "paid"],
    ["paid", "partially_refunded", "partially_refunded"],
    ["partially_refunded", "refunded", "refunded"],
    ["flagged", "refunded", "refunded"],
    ["paid", "dispute_opened", "disputed"],
    ["disputed", "dispute_won_paid", "paid"],
    ["disputed", "dispute_won_partially_refunded", "partially_refunded"],
    ["disputed", "dispute_lost", "charged_back"],
    ["pending_payment", "expired", "expired"],
    ["checkout_failed", "expired", "expired"],
    ["expired", "flagged", "flagged"],
  ] as const)("%s takes %s to %s", (from, event, to) => {
    expect(nextOrderStatus(from, event)).toBe(to);
  });

  test.each([
    ["paid", "paid", "a second payment never delivers again"],
    ["flagged", "paid", "a flagged order is not delivered by a later payment"],
    ["refunded", "paid", "a refunded order is not paid again"],
    ["paid", "approved", "only a flagged order is approved into delivery"],
    ["flagged", "partially_refunded", "a partial refund leaves a flagged order flagged"],
    ["charged_back", "dispute_won_paid", "a lost dispute is final"],
    ["expired", "paid", "an expired order is never delivered by a late payment"],
    ["paid", "expired", "a paid order does not expire"],
  ] as const)("%s refuses %s: %s", (from, event) => {
    expect(() => nextOrderStatus(from, event)).toThrow(OrderTransitionRefused);
  });

  test("every status and event pair either moves or is refused, never silently stays", () => {
    for (const from of ORDER_STATUSES) {
      for (const event of EVENTS) {
        if (canTake(from, event)) expect(ORDER_STATUSES).toContain(nextOrderStatus(from, event));
        else expect(() => nextOrderStatus(from, event)).toThrow(OrderTransitionRefused);
      }
    }
  });

  test("an order is only ever delivered from paid: no event leads out of the end states but a dispute", () => {
    const leaving = (from: (typeof ORDER_STATUSES)[number]) => EVENTS.filter((event) => canTake(from, event));
    expect(leaving("cancelled")).toEqual([]);
    expect(leaving("charged_back")).toEqual([]);
    expect(leaving("refunded")).toEqual(["dispute_opened"]);
    // A payment that got through as the order expired holds money: a person looks at it.
    expect(leaving("expired")).toEqual(["flagged"]);
  });
});

describe("the table as SQL guards read it", () => {
  test("sourcesFor lists exactly the statuses an event may happen from", () => {
    for (const event of EVENTS) {
      expect([...sourcesFor(event)].sort()).toEqual(ORDER_STATUSES.filter((from) => canTake(from, event)).sort());
    }
    expect(sourcesFor("checkout_failed")).toEqual(["pending_payment"]);
  });

  test("targetOf is where the event leads from any of its sources", () => {
    for (const event of EVENTS) {
      for (const from of sourcesFor(event)) expect(nextOrderStatus(from, event)).toBe(targetOf(event));
    }
  });
});
