import { productTally } from "../../domain/reports/product-shares.ts";
import { lastDay, type ReportRangeQuery, reportRange } from "../../domain/reports/report-range.ts";
import { revenueLedgers } from "../../domain/reports/revenue.ts";
import { CHURN_WINDOW_DAYS, reportMoment, subscriptionMetrics } from "../../domain/reports/subscription-metrics.ts";
import type { Clock } from "../shared/clock-and-log.ts";
import type { ReportSource } from "./ports.ts";

const DAY_MS = 86_400_000;

/** The owner's figures: revenue over a range from the ledger, and subscriptions at a moment. */
export function makeReports(deps: { readonly source: ReportSource; readonly clock: Clock }) {
  return {
    async revenueReport(query: ReportRangeQuery) {
      const range = reportRange(query, deps.clock());
      // Payments of several products are split one by one (to the cent, by each order's items).
      const products = productTally();
      const buckets = await deps.source.revenueBetween(range, products);
      return {
        from: range.from,
        to: lastDay(range),
        interval: range.interval,
        ledgers: revenueLedgers(range, buckets, products),
      };
    },

    async subscriptionReport(query: { readonly at?: string | undefined }) {
      const at = reportMoment(query.at, deps.clock());
      const since = new Date(at.getTime() - CHURN_WINDOW_DAYS * DAY_MS);
      const groups = await deps.source.subscriptionGroups(at, since);
      return { at, since, environments: subscriptionMetrics(groups) };
    },
  };
}

export type Reports = ReturnType<typeof makeReports>;
