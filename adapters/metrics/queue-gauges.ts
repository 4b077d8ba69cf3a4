import { Gauge, type Registry } from "prom-client";
import type { CountBy, QueueFigures } from "../postgres/queue-figures.ts";

/** The database's queue figures as gauges, replaced whole at each scrape so gone labels disappear. */
export function createQueueGauges(registry: Registry) {
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
    new Gauge<L>({ name, help, labelNames, registers: [registry] });
  const jobs = gauge("marketplace_jobs", "Jobs not done, by kind and state (pending, running, dead).", [
    "kind",
    "state",
  ]);
  const oldestDueJob = gauge(
    "marketplace_jobs_oldest_due_seconds",
    "How long the longest-waiting due job has waited for a worker.",
  );
  const deadJobs = gauge("marketplace_jobs_dead", "Jobs that used up their attempts and wait for an admin.");
  const inboxPending = gauge("marketplace_webhook_inbox_pending", "Gateway webhook events stored, not yet acted on.");
  const inboxLag = gauge(
    "marketplace_webhook_inbox_lag_seconds",
    "How long the oldest gateway webhook event not yet acted on has waited.",
  );
  const fulfillments = gauge("marketplace_fulfillments", "Fulfillment records, by driver and status.", [
    "driver",
    "status",
  ]);
  const deliveries = gauge(
    "marketplace_webhook_deliveries",
    "Outgoing webhook deliveries, by state (pending, succeeded, dead).",
    ["state"],
  );
  const setAll = <L extends string>(target: Gauge<L>, rows: readonly CountBy<L>[]) => {
    target.reset();
    for (const row of rows) target.set(row.labels as Record<L, string>, row.count);
  };
  return {
    show(figures: QueueFigures) {
      setAll(jobs, figures.jobs);
      oldestDueJob.set(figures.oldestDueJobSeconds);
      deadJobs.set(figures.jobs.filter((row) => row.labels.state === "dead").reduce((sum, row) => sum + row.count, 0));
      inboxPending.set(figures.webhookInboxPending);
      inboxLag.set(figures.webhookInboxLagSeconds);
      setAll(fulfillments, figures.fulfillments);
      setAll(deliveries, figures.webhookDeliveries);
    },
  };
}
