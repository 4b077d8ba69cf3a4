import { useState } from "preact/hooks";
import { type Schemas, unwrap } from "../../shared/api.ts";
import { Select } from "../../shared/fields.tsx";
import { formatMoney } from "../../shared/format.ts";
import { useLoad } from "../../shared/load.ts";
import { Loaded } from "../../shared/ui.tsx";
import { api } from "../context.ts";
import { RevenueChart } from "../operations/revenue-chart.tsx";
import { FigureList, RevenueTables } from "../operations/revenue-tables.tsx";
import { Toolbar } from "../operations/toolbar.tsx";

type Interval = Schemas["ReportInterval"];

const PERIODS = [
  ["day", "Last 30 days, by day"],
  ["week", "Last 12 weeks, by week"],
  ["month", "Last 12 months, by month"],
] as const;

const day = (time: Date) => time.toISOString().slice(0, 10);

/** The first day of a period ending today (UTC), as the report counts days. */
function periodStart(interval: Interval, today: Date): string {
  if (interval === "day") return day(new Date(today.getTime() - 29 * 86_400_000));
  if (interval === "week") return day(new Date(today.getTime() - (12 * 7 - 1) * 86_400_000));
  return day(new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 11, 1)));
}

const ENVIRONMENT_NAMES = { live: "Live", sandbox: "Sandbox" } as const;

/** The admin's home: revenue from the ledger, with its chart, and subscriptions with MRR. */
export function Overview() {
  const [interval, setPeriod] = useState<Interval>("day");
  const revenue = useLoad(() => {
    const today = new Date();
    const query = { from: periodStart(interval, today), to: day(today), interval };
    return unwrap(api.GET("/api/admin/reports/revenue", { params: { query } }));
  }, [interval]);
  const subscriptions = useLoad(() => unwrap(api.GET("/api/admin/reports/subscriptions")), []);
  return (
    <>
      <h1>Overview</h1>
      <h2>Revenue</h2>
      <Toolbar onRefresh={revenue.reload}>
        <Select label="Period" value={interval} options={PERIODS} onChange={(v) => setPeriod(v as Interval)} />
      </Toolbar>
      <p class="hint">
        Payments are placed by when they were recorded; refunds and chargebacks count with the payment they return.
      </p>
      <Loaded result={revenue.result}>
        {(report) =>
          report.ledgers.length === 0 ? (
            <p>
              No payments from {report.from} to {report.to}.
            </p>
          ) : (
            report.ledgers.map((ledger) => {
              const title = `${ledger.currency} (${ENVIRONMENT_NAMES[ledger.environment]})`;
              return (
                <section key={`${ledger.environment}-${ledger.currency}`} aria-label={`Revenue in ${title}`}>
                  <h3>
                    {title}: {report.from} to {report.to}
                  </h3>
                  <FigureList figures={ledger.total} currency={ledger.currency} label={`Totals in ${title}`} />
                  <RevenueChart ledger={ledger} intervalName={interval} />
                  <RevenueTables ledger={ledger} title={title} />
                </section>
              );
            })
          )
        }
      </Loaded>
      <h2>Subscriptions</h2>
      <Loaded result={subscriptions.result}>{(report) => <SubscriptionFigures report={report} />}</Loaded>
    </>
  );
}

function SubscriptionFigures(props: { report: Schemas["SubscriptionReport"] }) {
  if (props.report.environments.length === 0) return <p>No subscriptions yet.</p>;
  return (
    <>
      {props.report.environments.map((metrics) => (
        <section key={metrics.environment} aria-label={`Subscriptions (${ENVIRONMENT_NAMES[metrics.environment]})`}>
          <h3>{ENVIRONMENT_NAMES[metrics.environment]}</h3>
          <dl class="figures">
            {(["active", "trialing", "past_due", "suspended", "cancelled"] as const).map((status) => (
              <div key={status}>
                <dt>{status === "past_due" ? "Past due" : status[0]?.toUpperCase() + status.slice(1)}</dt>
                <dd>{metrics.counts[status]}</dd>
              </div>
            ))}
            {metrics.mrr.flatMap((row) =>
              (
                [
                  ["mrr", "MRR"],
                  ["new_mrr", "New MRR (30 days)"],
                  ["churned_mrr", "Churned MRR (30 days)"],
                ] as const
              ).map(([key, name]) => (
                <div key={`${row.currency}-${key}`}>
                  <dt>
                    {name}, {row.currency}
                  </dt>
                  <dd>{formatMoney(row[key], row.currency)}</dd>
                </div>
              )),
            )}
          </dl>
        </section>
      ))}
    </>
  );
}
