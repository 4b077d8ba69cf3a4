import { lastDay, type ReportRangeQuery, reportRange } from "../../domain/reports/report-range.ts";
import { aggregateRevenue } from "../../domain/reports/revenue.ts";
import { CHURN_WINDOW_DAYS, reportMoment, subscriptionMetrics } from "../../domain/reports/subscription-metrics.ts";
import type { Clock } from "../shared/clock-and-log.ts";
import type { ReportSource } from "./ports.ts";

const DAY_MS = 86_400_000;

/** The owner's figures: revenue over a range from the ledger, and subscriptions at a moment. */
export function makeReports(deps: { readonly source: ReportSource; readonly clock: Clock }) {
  return {
    async revenueReport(query: ReportRangeQuery) {
      const range = reportRange(query, deps.clock());
      const payments = await deps.source.paymentsBetween(range.from, range.until);
      return {
        from: range.from,
        to: lastDay(range),
        interval: range.interval,
        ledgers: aggregateRevenue(range, payments),
      };
    },

    async subscriptionReport(query: { readonly at?: string | undefined }) {
      const at = reportMoment(query.at, deps.clock());
      const since = new Date(at.getTime() - CHURN_WINDOW_DAYS * DAY_MS);
      const subscriptions = await deps.source.subscriptionsAt(at);
      return { at, since, environments: subscriptionMetrics(subscriptions, at) };
    },
  };
}

export type Reports = ReturnType<typeof makeReports>;
