import { describe, expect, test } from "bun:test";
import { type LedgerPayment, productTally } from "../../../domain/reports/product-shares.ts";
import { intervalsOf, reportRange } from "../../../domain/reports/report-range.ts";
import { type RevenueBucket, revenueLedgers } from "../../../domain/reports/revenue.ts";
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
    environment: "live",
    currency: "EUR",
    kind: "initial",
    amount: 1000,
    discount: 0,
    tax: 0,
    refunded_amount: 0,
    charged_back_amount: 0,
    items: [item("a", 1000)],
    ...overrides,
  };
}

/** A payment as the ledger sums it, in the interval starting at `start` (before the range cuts it). */
function aBucket(payment: LedgerPayment, gateway: RevenueBucket["gateway"], start: string): RevenueBucket {
  return {
    environment: payment.environment,
    currency: payment.currency,
    gateway,
    start: new Date(`${start}T00:00:00Z`),
    payments: 1,
    gross: payment.amount,
    discounts: payment.discount,
    tax: payment.tax,
    refunds: payment.refunded_amount,
    charged_back: payment.charged_back_amount,
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

  test("a range must end by 9999-12-31 and start in 1970 or later", () => {
    for (const query of [
      { to: "9999-12-31" },
      { from: "9999-12-01", to: "9999-12-31" },
      { from: "9999-12-01", to: "9999-12-31", interval: "week" as const },
    ]) {
      expect(refusal(() => reportRange(query, TODAY))).toEqual([["/to", "INVALID_DATE"]]);
    }
    expect(refusal(() => reportRange({ from: "0000-12-31", to: "0001-01-01" }, TODAY))).toEqual([
      ["/to", "INVALID_DATE"],
      ["/from", "INVALID_DATE"],
    ]);
    const last = reportRange({ from: "9999-12-01", to: "9999-12-30", interval: "week" }, TODAY);
    expect(intervalsOf(last).at(-1)?.end.toISOString()).toBe("9999-12-31T00:00:00.000Z");
  });
});

describe("revenue from the ledger", () => {
  // Two products bought together, 3 to 1, with a discount and tax; a partial refund.
  const bought = aPayment({
    amount: 1200,
    discount: 100,
    tax: 200,
    refunded_amount: 401,
    items: [item("a", 900), item("b", 300)],
  });
  // A renewal: only the renewing item shares it. Lost to a dispute.
  const renewed = aPayment({
    kind: "renewal",
    amount: 500,
    charged_back_amount: 500,
    items: [item("b", 0, 500, true), item("a", 900)],
  });
  const dollars = aPayment({ currency: "USD", amount: 700, items: [item("a", 700)] });
  const sandbox = aPayment({ environment: "sandbox", amount: 9999 });
  const buckets = [
    aBucket(bought, "gateway_a", "2026-11-02"),
    aBucket(renewed, "gateway_b", "2026-11-16"),
    aBucket(dollars, "gateway_a", "2026-11-02"),
    // Recorded on 2026-11-01, a Sunday: its week started on 2026-10-26, before the range.
    aBucket(sandbox, "gateway_a", "2026-10-26"),
  ];
  const products = productTally();
  for (const payment of [bought, renewed, dollars, sandbox]) products.add(payment);
  const ledgers = revenueLedgers(range, buckets, products);

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
    expect(ledgers[2]?.intervals[0]).toMatchObject({ gross: 9999, payments: 1 });
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

describe("a payment split by product", () => {
  test("no product gives back more than it brought in, and the shares still add up", () => {
    const tally = productTally();
    // 2 over weights 1 and 2 is 1 and 1; a refund of 1 and a chargeback of 1 must not both land on one.
    tally.add(aPayment({ amount: 2, refunded_amount: 1, charged_back_amount: 1, items: [item("a", 1), item("b", 2)] }));
    tally.add(
      aPayment({
        amount: 1001,
        refunded_amount: 500,
        charged_back_amount: 501,
        items: [item("a", 1), item("b", 1000)],
      }),
    );
    const rows = tally.of("live", "EUR");
    for (const row of rows) {
      expect(row.net).toBeGreaterThanOrEqual(0);
      expect(row.refunds + row.charged_back).toBeLessThanOrEqual(row.gross);
    }
    const sum = (key: "gross" | "refunds" | "charged_back" | "net") => rows.reduce((total, row) => total + row[key], 0);
    expect([sum("gross"), sum("refunds"), sum("charged_back"), sum("net")]).toEqual([1003, 501, 502, 0]);
  });
});
