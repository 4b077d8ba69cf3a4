import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { GatewayBreakerView } from "../../application/payments/gateway-breaker-ports.ts";
import type { AnsweredRequest } from "../../kit/request-context.ts";
import type { QueueFigures } from "../postgres/queue-figures.ts";
import { type UpstreamCall, upstreamCalls } from "../upstream/upstream-calls.ts";
import { createBreakerGauges } from "./breaker-gauges.ts";
import { createQueueGauges } from "./queue-gauges.ts";
import { RequestDurations } from "./request-durations.ts";

export interface MarketplaceMetrics {
  readonly contentType: string;
  /** Times one answered request by its route's template and status class. */
  readonly observeRequest: (answered: AnsweredRequest) => void;
  /** Counts one incoming gateway webhook by how it ended. */
  countWebhook(gateway: string, outcome: string): void;
  /** The exposition: in-process counters and the queue figures read now from the database. */
  render(): Promise<string>;
  /** Stops listening to upstream calls. */
  close(): void;
}

const UPSTREAM_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The marketplace's Prometheus metrics, one registry per wired marketplace (tests wire several in
 * one process). Requests, webhooks and upstream calls are counted as they happen, in this process;
 * the queues are read from PostgreSQL at each scrape, so every instance reports the same figures
 * (aggregate them with `max`, not `sum`).
 */
export function createMarketplaceMetrics(deps: {
  readFigures(): Promise<QueueFigures>;
  readBreakers(): Promise<readonly GatewayBreakerView[]>;
}): MarketplaceMetrics {
  const registry = new Registry();
  const requests = new RequestDurations(registry);
  const webhooks = new Counter({
    name: "marketplace_webhooks_received_total",
    help: "Incoming gateway webhooks, by gateway and outcome (received, duplicate, or the refusal's code).",
    labelNames: ["gateway", "outcome"] as const,
    registers: [registry],
  });
  const upstream = new Histogram({
    name: "marketplace_upstream_request_duration_seconds",
    help: "Calls to the payment gateways and the provider, by upstream, method and outcome (ok or the failure).",
    labelNames: ["upstream", "method", "outcome"] as const,
    buckets: UPSTREAM_BUCKETS,
    registers: [registry],
  });
  new Gauge({
    name: "process_resident_memory_bytes",
    help: "Resident memory size in bytes.",
    registers: [registry],
    collect() {
      this.set(process.memoryUsage.rss());
    },
  });
  const queues = createQueueGauges(registry);
  const breakers = createBreakerGauges(registry);
  const onUpstreamCall = (message: unknown) => {
    const call = message as UpstreamCall;
    upstream.observe({ upstream: call.name, method: call.method, outcome: call.outcome }, call.seconds);
  };
  subscribe(upstreamCalls.name, onUpstreamCall);

  let scrape: Promise<string> | undefined;
  const render = async () => {
    // A database incident is when the request and upstream counters matter most: they are served
    // whether or not the queues can be read.
    await Promise.all([
      deps.readFigures().then(queues.show, queues.unreadable),
      deps.readBreakers().then(breakers.show, queues.unreadable),
    ]);
    return registry.metrics();
  };
  return {
    contentType: registry.contentType,
    observeRequest: (answered) => requests.record(answered),
    countWebhook(gateway, outcome) {
      webhooks.inc({ gateway, outcome });
    },
    // Scrapes that arrive together share one reading of the database.
    render() {
      scrape ??= render().finally(() => {
        scrape = undefined;
      });
      return scrape;
    },
    close() {
      unsubscribe(upstreamCalls.name, onUpstreamCall);
    },
  };
}
