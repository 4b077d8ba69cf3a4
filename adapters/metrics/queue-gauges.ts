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
  const fulfillments = gauge(
    "marketplace_fulfillments",
    "Fulfillments not settled (neither active nor cancelled), by driver and status.",
    ["driver", "status"],
  );
  const deliveries = gauge(
    "marketplace_webhook_deliveries",
    "Outgoing webhook deliveries not succeeded, by state (pending, dead).",
    ["state"],
  );
  const readable = gauge(
    "marketplace_queue_figures_up",
    "1 when this scrape read the queue figures from the database; 0 when it could not (the last ones read stay).",
  );
  const setAll = <L extends string>(target: Gauge<L>, rows: readonly CountBy<L>[]) => {
    target.reset();
    for (const row of rows) target.set(row.labels as Record<L, string>, row.count);
  };
  return {
    /** The database could not be read: the last figures stay, marked stale, beside the live counters. */
    unreadable() {
      readable.set(0);
    },
    show(figures: QueueFigures) {
      readable.set(1);
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
