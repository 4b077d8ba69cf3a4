import { makeReports } from "../../application/reports/reports.ts";
import { createPostgresReportSource } from "../postgres/report-source.ts";
import type { Platform } from "./platform.ts";

/** Revenue and subscription reports, read from the ledger and the subscription records. */
export function wireReports({ sql, clock }: Platform) {
  const reports = makeReports({ source: createPostgresReportSource(sql), clock });
  return {
    useCases: {
      revenueReport: reports.revenueReport,
      subscriptionReport: reports.subscriptionReport,
    },
  };
}

export type ReportsFeature = ReturnType<typeof wireReports>;
