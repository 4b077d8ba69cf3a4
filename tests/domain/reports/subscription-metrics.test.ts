import { describe, expect, test } from "bun:test";
import {
  monthlyRevenue,
  reportMoment,
  type SubscriptionGroup,
  subscriptionMetrics,
} from "../../../domain/reports/subscription-metrics.ts";
import { ValidationFailed } from "../../../domain/shared/errors.ts";

function aGroup(overrides: Partial<SubscriptionGroup>): SubscriptionGroup {
  return {
    environment: "live",
    currency: "EUR",
    status: "active",
    inferred: false,
    paid_before: true,
    billing_interval: "monthly",
    subscriptions: 1,
    price: 1000,
    ...overrides,
  };
}

describe("MRR", () => {
  test("yearly prices are added, then divided by 12 once, rounded half up", () => {
    const yearly = (price: number) => aGroup({ billing_interval: "yearly", price });
    expect(monthlyRevenue([yearly(1000), yearly(1000), aGroup({ price: 31 })])).toBe(31 + 167);
    expect(monthlyRevenue([yearly(6)])).toBe(1);
    expect(monthlyRevenue([yearly(5)])).toBe(0);
  });

  test("counts, MRR, new and churned MRR over the 30 days before, per environment and currency", () => {
    const metrics = subscriptionMetrics([
      aGroup({ subscriptions: 2, price: 2000 }),
      aGroup({ billing_interval: "yearly", price: 12_000 }),
      aGroup({ status: "past_due", price: 1000 }),
      // New within the window: one outright, one whose trial ended in it (inferred).
      aGroup({ paid_before: false, price: 2000 }),
      aGroup({ paid_before: false, inferred: true, price: 400 }),
      aGroup({ status: "trialing", paid_before: false, price: 1000 }),
      // Churned within the window; and one cancelled long before, counted but not churned.
      aGroup({ status: "cancelled", price: 700 }),
      aGroup({ status: "cancelled", paid_before: false, price: 9 }),
      aGroup({ currency: "USD", price: 1500 }),
      aGroup({ environment: "sandbox", price: 99 }),
    ]);
    expect(metrics.map((m) => m.environment)).toEqual(["live", "sandbox"]);
    expect(metrics[0]?.counts).toEqual({ trialing: 1, active: 6, past_due: 1, suspended: 0, cancelled: 2 });
    expect(metrics[0]?.inferred).toBe(1);
    expect(metrics[0]?.mrr).toEqual([
      { currency: "EUR", mrr: 2000 + 1000 + 1000 + 2000 + 400, new_mrr: 2400, churned_mrr: 700 },
      { currency: "USD", mrr: 1500, new_mrr: 0, churned_mrr: 0 },
    ]);
    expect(metrics[1]?.mrr).toEqual([{ currency: "EUR", mrr: 99, new_mrr: 0, churned_mrr: 0 }]);
  });
});

test("the moment read: a date or a date-time with its offset, never in the future", () => {
  const now = new Date("2026-11-29T10:00:00Z");
  expect(reportMoment(undefined, now)).toBe(now);
  expect(reportMoment("2026-11-01", now).toISOString()).toBe("2026-11-01T00:00:00.000Z");
  expect(reportMoment("2026-11-01T12:00:00+02:00", now).toISOString()).toBe("2026-11-01T10:00:00.000Z");
  for (const [text, code] of [
    ["2026-02-30", "INVALID_DATE"],
    ["last week", "INVALID_DATE"],
    ["2026-11-01T12:00:00", "INVALID_DATE"],
    ["2026-11-30", "IN_THE_FUTURE"],
  ]) {
    let refused: unknown;
    try {
      reportMoment(text, now);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ValidationFailed);
    expect((refused as ValidationFailed).errors?.[0]).toMatchObject({ path: "/at", code });
  }
});
