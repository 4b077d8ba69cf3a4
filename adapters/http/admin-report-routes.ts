import { Elysia, type Static, t } from "elysia";
import type { Reports } from "../../application/reports/reports.ts";
import type { RevenueLedger } from "../../domain/reports/revenue.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { ReportIntervalSchema, RevenueReportSchema, SubscriptionReportSchema } from "./report-schemas.ts";

export interface AdminReportDeps {
  readonly auth: AuthOptions;
  revenueReport: Reports["revenueReport"];
  subscriptionReport: Reports["subscriptionReport"];
}

const dayOf = (time: Date) => time.toISOString().slice(0, 10);

/** Dates are checked by the domain, so a bad one is refused at its parameter with what is allowed. */
const dateText = (description: string) => t.String({ maxLength: 40, description });

const toLedgerBody = (ledger: RevenueLedger) => ({
  ...ledger,
  by_gateway: [...ledger.by_gateway],
  by_product: [...ledger.by_product],
  intervals: ledger.intervals.map((interval) => ({
    ...interval,
    start: dayOf(interval.start),
    end: dayOf(interval.end),
  })),
});

/** The owner's figures: revenue from the ledger, subscriptions and MRR. */
export function createAdminReportRoutes(deps: AdminReportDeps) {
  return new Elysia({ name: "admin-report-routes", tags: ["admin: reports"] })
    .use(createAuth(deps.auth))
    .guard({ auth: "admin", detail: { security: [{ bearer: [] }] } }, (app) =>
      app
        .get(
          "/api/admin/reports/revenue",
          async ({ query }): Promise<Static<typeof RevenueReportSchema>> => {
            const report = await deps.revenueReport(query);
            return {
              ...report,
              from: dayOf(report.from),
              to: dayOf(report.to),
              ledgers: report.ledgers.map(toLedgerBody),
            };
          },
          {
            query: t.Object({
              from: t.Optional(dateText("First day (UTC, YYYY-MM-DD); default 29 days before `to`")),
              to: t.Optional(dateText("Last day, included (UTC, YYYY-MM-DD); default today")),
              interval: t.Optional(ReportIntervalSchema),
            }),
            response: { 200: RevenueReportSchema },
            detail: {
              summary:
                "Revenue per interval and in total, per environment and currency, by gateway and by product, from the payments ledger",
            },
          },
        )
        .get(
          "/api/admin/reports/subscriptions",
          async ({ query }): Promise<Static<typeof SubscriptionReportSchema>> => {
            const report = await deps.subscriptionReport(query);
            const environments = report.environments.map((metrics) => ({ ...metrics, mrr: [...metrics.mrr] }));
            return { at: report.at.toISOString(), since: report.since.toISOString(), environments };
          },
          {
            query: t.Object({
              at: t.Optional(dateText("The moment read (ISO 8601 date or date-time); default now")),
            }),
            response: { 200: SubscriptionReportSchema },
            detail: {
              summary: "Subscription counts by status, MRR, and new and churned MRR over the 30 days before `at`",
            },
          },
        ),
    );
}
