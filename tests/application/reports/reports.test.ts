import { expect, test } from "bun:test";
import type { ReportSource } from "../../../application/reports/ports.ts";
import { makeReports } from "../../../application/reports/reports.ts";
import type { LedgerPayment } from "../../../domain/reports/product-shares.ts";
import { ValidationFailed } from "../../../domain/shared/errors.ts";

const NOW = new Date("2026-11-29T10:00:00Z");

function aSource(payments: LedgerPayment[] = []) {
  const asked: string[] = [];
  const source: ReportSource = {
    async revenueBetween(range, products) {
      asked.push(`payments ${range.from.toISOString()} ${range.until.toISOString()} ${range.interval}`);
      // The first as a one-product order's sum, the rest one by one.
      const [first, ...rest] = payments;
      if (first) {
        const { environment, currency, amount, discount, tax, refunded_amount, charged_back_amount, items } = first;
        const [item] = items;
        products.addWhole({
          environment,
          currency,
          product_id: item?.product_id ?? "",
          product_name: item?.product_name ?? "",
          payments: 1,
          gross: amount,
          discounts: discount,
          tax,
          refunds: refunded_amount,
          charged_back: charged_back_amount,
        });
      }
      for (const payment of rest) products.add(payment);
      return payments.map((payment) => ({
        environment: payment.environment,
        currency: payment.currency,
        gateway: "gateway_b",
        start: new Date("2026-11-29T00:00:00Z"),
        payments: 1,
        gross: payment.amount,
        discounts: payment.discount,
        tax: payment.tax,
        refunds: payment.refunded_amount,
        charged_back: payment.charged_back_amount,
      }));
    },
    async subscriptionGroups(at, since) {
      asked.push(`subscriptions ${at.toISOString()} ${since.toISOString()}`);
      return [];
    },
  };
  return { source, asked };
}

test("revenue reads the ledger for the whole days asked, today by default, and aggregates it", async () => {
  const payment = (amount: number, product_id: string): LedgerPayment => ({
    environment: "live",
    currency: "EUR",
    kind: "initial",
    amount,
    discount: 0,
    tax: 200,
    refunded_amount: 0,
    charged_back_amount: 0,
    items: [{ product_id, product_name: product_id.toUpperCase(), due_today: 1000, amount: 1000, recurring: false }],
  });
  const { source, asked } = aSource([payment(1200, "a"), payment(300, "b"), payment(100, "a")]);
  const report = await makeReports({ source, clock: () => NOW }).revenueReport({ from: "2026-11-28" });
  expect(asked).toEqual(["payments 2026-11-28T00:00:00.000Z 2026-11-30T00:00:00.000Z day"]);
  expect(report.to.toISOString()).toBe("2026-11-29T00:00:00.000Z");
  expect(report.ledgers[0]?.intervals.map((interval) => interval.gross)).toEqual([0, 1600]);
  // A product's summed payments and its payments split one by one add up.
  expect(report.ledgers[0]?.by_product.map((product) => [product.product_id, product.payments, product.gross])).toEqual(
    [
      ["a", 2, 1300],
      ["b", 1, 300],
    ],
  );
});

test("a bad query is refused before anything is read", async () => {
  const { source, asked } = aSource();
  const reports = makeReports({ source, clock: () => NOW });
  await expect(reports.revenueReport({ from: "2026-12-01" })).rejects.toBeInstanceOf(ValidationFailed);
  await expect(reports.subscriptionReport({ at: "2027-01-01" })).rejects.toBeInstanceOf(ValidationFailed);
  expect(asked).toEqual([]);
  await reports.subscriptionReport({});
  expect(asked).toEqual([`subscriptions ${NOW.toISOString()} 2026-10-30T10:00:00.000Z`]);
});
