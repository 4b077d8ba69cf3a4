import { describe, expect, test } from "bun:test";
import { intervalsOf, reportRange } from "../../../domain/reports/report-range.ts";
import { aggregateRevenue, type LedgerPayment } from "../../../domain/reports/revenue.ts";
import { ValidationFailed } from "../../../domain/shared/errors.ts";

const TODAY = new Date("2026-11-29T10:00:00Z");
const range = reportRange({ from: "2026-11-01", to: "2026-11-30", interval: "week" }, TODAY);

const item = (product_id: string, due_today: number, amount = due_today, recurring = false) => ({
  product_id,
  product_name: product_id.toUpperCase(),
  due_today,
  amount,
  recurring,
});

function aPayment(overrides: Partial<LedgerPayment>): LedgerPayment {
  return {
    id: crypto.randomUUID(),
    gateway: "gateway_a",
    environment: "live",
    currency: "EUR",
    kind: "initial",
    created_at: new Date("2026-11-02T12:00:00Z"),
    amount: 1000,
    discount: 0,
    tax: 0,
    refunded_amount: 0,
    charged_back_amount: 0,
    items: [item("a", 1000)],
    ...overrides,
  };
}

function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationFailed) return error.errors?.map((e) => [e.path, e.code]);
  }
  throw new Error("not refused");
}

describe("the revenue range", () => {
  test("weeks start on Monday, the first and last clipped to the range, tiling it", () => {
    const weeks = intervalsOf(range).map(({ start, end }) => [
      start.toISOString().slice(0, 10),
      end.toISOString().slice(0, 10),
    ]);
    expect(weeks).toEqual([
      ["2026-11-01", "2026-11-02"],
      ["2026-11-02", "2026-11-09"],
      ["2026-11-09", "2026-11-16"],
      ["2026-11-16", "2026-11-23"],
      ["2026-11-23", "2026-11-30"],
      ["2026-11-30", "2026-12-01"],
    ]);
    const months = intervalsOf(reportRange({ from: "2026-01-15", to: "2026-03-01", interval: "month" }, TODAY));
    expect(months.map(({ start }) => start.toISOString().slice(0, 10))).toEqual([
      "2026-01-15",
      "2026-02-01",
      "2026-03-01",
    ]);
  });

  test("defaults to the 30 days up to today, by day", () => {
    const defaults = reportRange({}, TODAY);
    expect(defaults.from.toISOString()).toBe("2026-10-31T00:00:00.000Z");
    expect(defaults.until.toISOString()).toBe("2026-11-30T00:00:00.000Z");
    expect(intervalsOf(defaults)).toHaveLength(30);
  });

  test("bad dates, a reversed range and too many intervals are refused at their parameter", () => {
    expect(refusal(() => reportRange({ from: "2026-02-30" }, TODAY))).toEqual([["/from", "INVALID_DATE"]]);
    expect(refusal(() => reportRange({ from: "yesterday", to: "2026-1-1" }, TODAY))).toEqual([
      ["/to", "INVALID_DATE"],
      ["/from", "INVALID_DATE"],
    ]);
    expect(refusal(() => reportRange({ from: "2026-11-02", to: "2026-11-01" }, TODAY))).toEqual([
      ["/from", "RANGE_REVERSED"],
    ]);
    expect(refusal(() => reportRange({ from: "2024-01-01", to: "2026-01-01" }, TODAY))).toEqual([
      ["/interval", "TOO_MANY_INTERVALS"],
    ]);
    expect(intervalsOf(reportRange({ from: "2024-01-01", to: "2026-01-01", interval: "week" }, TODAY))).toHaveLength(
      105,
    );
  });
});

describe("revenue from the ledger", () => {
  const payments = [
    // Two products bought together, 3 to 1, with a discount and tax; a partial refund.
    aPayment({
      amount: 1200,
      discount: 100,
      tax: 200,
      refunded_amount: 401,
      items: [item("a", 900), item("b", 300)],
    }),
    // A renewal: only the renewing item shares it. Lost to a dispute.
    aPayment({
      gateway: "gateway_b",
      kind: "renewal",
      created_at: new Date("2026-11-20T23:59:59Z"),
      amount: 500,
      charged_back_amount: 500,
      items: [item("b", 0, 500, true), item("a", 900)],
    }),
    aPayment({ currency: "USD", amount: 700, items: [item("a", 700)] }),
    aPayment({ environment: "sandbox", amount: 9999 }),
    // Outside the range: the midnight after its last day.
    aPayment({ created_at: new Date("2026-12-01T00:00:00Z"), amount: 5 }),
  ];
  const ledgers = aggregateRevenue(range, payments);

  test("currencies and environments are kept apart, live first", () => {
    expect(ledgers.map((ledger) => [ledger.environment, ledger.currency, ledger.total.gross])).toEqual([
      ["live", "EUR", 1700],
      ["live", "USD", 700],
      ["sandbox", "EUR", 9999],
    ]);
  });

  test("every figure to the cent, in total, per interval, per gateway and per product", () => {
    const [eur] = ledgers;
    expect(eur?.total).toEqual({
      payments: 2,
      gross: 1700,
      discounts: 100,
      tax: 200,
      refunds: 401,
      charged_back: 500,
      net: 799,
    });
    const busy = eur?.intervals.filter((interval) => interval.payments > 0);
    expect(busy?.map((i) => [i.start.toISOString().slice(0, 10), i.gross, i.net])).toEqual([
      ["2026-11-02", 1200, 799],
      ["2026-11-16", 500, 0],
    ]);
    expect(eur?.by_gateway.map((g) => [g.gateway, g.gross, g.refunds, g.charged_back, g.net])).toEqual([
      ["gateway_a", 1200, 401, 0, 799],
      ["gateway_b", 500, 0, 500, 0],
    ]);
    // 1200 splits 900/300; the refund of 401 splits 300.75/100.25: the odd cent to the larger remainder.
    expect(
      eur?.by_product.map((p) => [p.product_id, p.payments, p.gross, p.discounts, p.tax, p.refunds, p.charged_back]),
    ).toEqual([
      ["a", 1, 900, 75, 150, 301, 0],
      ["b", 2, 800, 25, 50, 100, 500],
    ]);
  });

  test("the splits add up to the totals", () => {
    for (const ledger of ledgers) {
      for (const key of ["gross", "discounts", "tax", "refunds", "charged_back", "net"] as const) {
        const sum = (rows: readonly Record<typeof key, number>[]) => rows.reduce((total, row) => total + row[key], 0);
        expect(sum(ledger.intervals)).toBe(ledger.total[key]);
        expect(sum(ledger.by_gateway)).toBe(ledger.total[key]);
        expect(sum(ledger.by_product)).toBe(ledger.total[key]);
      }
    }
  });
});
