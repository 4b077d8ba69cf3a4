import { expect, test } from "bun:test";
import type { ReportSource } from "../../../application/reports/ports.ts";
import { makeReports } from "../../../application/reports/reports.ts";
import type { LedgerPayment } from "../../../domain/reports/revenue.ts";
import { ValidationFailed } from "../../../domain/shared/errors.ts";

const NOW = new Date("2026-11-29T10:00:00Z");

function aSource(payments: LedgerPayment[] = []) {
  const asked: string[] = [];
  const source: ReportSource = {
    async paymentsBetween(from, until) {
      asked.push(`payments ${from.toISOString()} ${until.toISOString()}`);
      return payments;
    },
    async subscriptionsAt(at) {
      asked.push(`subscriptions ${at.toISOString()}`);
      return [];
    },
  };
  return { source, asked };
}

test("revenue reads the ledger for the whole days asked, today by default, and aggregates it", async () => {
  const payment: LedgerPayment = {
    id: "p-1",
    gateway: "gateway_b",
    environment: "live",
    currency: "EUR",
    kind: "initial",
    created_at: new Date("2026-11-29T09:00:00Z"),
    amount: 1200,
    discount: 0,
    tax: 200,
    refunded_amount: 0,
    charged_back_amount: 0,
    items: [{ product_id: "a", product_name: "A", due_today: 1000, amount: 1000, recurring: false }],
  };
  const { source, asked } = aSource([payment]);
  const report = await makeReports({ source, clock: () => NOW }).revenueReport({ from: "2026-11-28" });
  expect(asked).toEqual(["payments 2026-11-28T00:00:00.000Z 2026-11-30T00:00:00.000Z"]);
  expect(report.to.toISOString()).toBe("2026-11-29T00:00:00.000Z");
  expect(report.ledgers[0]?.intervals.map((interval) => interval.gross)).toEqual([0, 1200]);
});

test("a bad query is refused before anything is read", async () => {
  const { source, asked } = aSource();
  const reports = makeReports({ source, clock: () => NOW });
  await expect(reports.revenueReport({ from: "2026-12-01" })).rejects.toBeInstanceOf(ValidationFailed);
  await expect(reports.subscriptionReport({ at: "2027-01-01" })).rejects.toBeInstanceOf(ValidationFailed);
  expect(asked).toEqual([]);
  await reports.subscriptionReport({});
  expect(asked).toEqual([`subscriptions ${NOW.toISOString()}`]);
});
