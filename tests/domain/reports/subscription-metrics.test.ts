import { describe, expect, test } from "bun:test";
import {
  monthlyRevenue,
  reportMoment,
  type SubscriptionFacts,
  statusAt,
  subscriptionMetrics,
} from "../../../domain/reports/subscription-metrics.ts";
import { ValidationFailed } from "../../../domain/shared/errors.ts";

const AT = new Date("2026-11-29T00:00:00Z");
const day = (n: number) => new Date(AT.getTime() + n * 86_400_000);

function aSubscription(overrides: Partial<SubscriptionFacts>): SubscriptionFacts {
  return {
    environment: "live",
    currency: "EUR",
    status: "active",
    billing_interval: "monthly",
    price: 1000,
    created_at: day(-100),
    updated_at: day(-100),
    cancelled_at: null,
    trial_ends_at: null,
    ...overrides,
  };
}

describe("a subscription's status at a moment", () => {
  test("read when the record has not changed since, inferred from the trial otherwise", () => {
    expect(statusAt(aSubscription({ created_at: day(1) }), AT)).toBeNull();
    expect(statusAt(aSubscription({ status: "past_due", updated_at: day(-1) }), AT)).toEqual({
      status: "past_due",
      inferred: false,
    });
    const cancelledLater = aSubscription({ status: "cancelled", updated_at: day(2), cancelled_at: day(2) });
    expect(statusAt(cancelledLater, AT)).toEqual({ status: "active", inferred: true });
    expect(statusAt(cancelledLater, day(3))).toEqual({ status: "cancelled", inferred: false });
    const trial = aSubscription({ updated_at: day(5), trial_ends_at: day(1) });
    expect(statusAt(trial, AT)).toEqual({ status: "trialing", inferred: true });
  });
});

describe("MRR", () => {
  test("yearly prices are added, then divided by 12 once, rounded half up", () => {
    const yearly = (price: number) => aSubscription({ billing_interval: "yearly", price });
    expect(monthlyRevenue([yearly(1000), yearly(1000), aSubscription({ price: 31 })])).toBe(31 + 167);
    expect(monthlyRevenue([yearly(6)])).toBe(1);
    expect(monthlyRevenue([yearly(5)])).toBe(0);
  });

  test("counts, MRR, new and churned MRR over the 30 days before, per environment and currency", () => {
    const metrics = subscriptionMetrics(
      [
        aSubscription({}),
        aSubscription({ billing_interval: "yearly", price: 12_000 }),
        aSubscription({ status: "past_due", updated_at: day(-2) }),
        // New within the window: one outright, one whose trial ended in it.
        aSubscription({ created_at: day(-10), updated_at: day(-10), price: 2000 }),
        aSubscription({ created_at: day(-40), updated_at: day(-20), trial_ends_at: day(-20), price: 400 }),
        aSubscription({ status: "trialing", created_at: day(-3), updated_at: day(-3), trial_ends_at: day(11) }),
        // Churned within the window; and one cancelled long before, counted but not churned.
        aSubscription({ status: "cancelled", updated_at: day(-5), cancelled_at: day(-5), price: 700 }),
        aSubscription({ status: "cancelled", updated_at: day(-60), cancelled_at: day(-60), price: 9 }),
        aSubscription({ currency: "USD", price: 1500 }),
        aSubscription({ environment: "sandbox", price: 99 }),
      ],
      AT,
    );
    expect(metrics.map((m) => m.environment)).toEqual(["live", "sandbox"]);
    expect(metrics[0]?.counts).toEqual({ trialing: 1, active: 5, past_due: 1, suspended: 0, cancelled: 2 });
    expect(metrics[0]?.inferred).toBe(0);
    expect(metrics[0]?.mrr).toEqual([
      { currency: "EUR", mrr: 1000 + 1000 + 1000 + 2000 + 400, new_mrr: 2400, churned_mrr: 700 },
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
