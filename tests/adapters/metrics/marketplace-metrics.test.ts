import { describe, expect, test } from "bun:test";
import { createMarketplaceMetrics } from "../../../adapters/metrics/marketplace-metrics.ts";
import type { QueueFigures } from "../../../adapters/postgres/queue-figures.ts";
import { publishUpstreamCall } from "../../../adapters/upstream/upstream-calls.ts";
import { parseExposition, sampleOf } from "../../support/metrics.ts";

const noBreakers = async () => [];

const figures = (dead: number): QueueFigures => ({
  jobs: [{ labels: { kind: "send_email", state: "dead" }, count: dead }],
  oldestDueJobSeconds: 3,
  webhookInboxPending: 0,
  webhookInboxLagSeconds: 0,
  fulfillments: [],
  webhookDeliveries: [],
});

describe("the marketplace metrics", () => {
  test("a database that cannot be read leaves the counters served and the last queue figures, marked stale", async () => {
    let database: "up" | "down" = "up";
    const metrics = createMarketplaceMetrics({
      readFigures: async () => {
        if (database === "down") throw new Error("connection refused");
        return figures(2);
      },
      readBreakers: noBreakers,
    });
    try {
      metrics.observeRequest({ method: "GET", route: "/api/products", status: 200, seconds: 0.002 });
      publishUpstreamCall({ name: "gateway_a", method: "POST", outcome: "timeout", seconds: 15 });
      const up = parseExposition(await metrics.render());
      expect(sampleOf(up, "marketplace_queue_figures_up")).toBe(1);

      database = "down";
      const down = parseExposition(await metrics.render());
      expect(sampleOf(down, "marketplace_queue_figures_up")).toBe(0);
      expect(sampleOf(down, "marketplace_jobs_dead")).toBe(2);
      const requests = { method: "GET", route: "/api/products", status_class: "2xx" };
      expect(sampleOf(down, "marketplace_http_request_duration_seconds_count", requests)).toBe(1);
      const timeouts = { upstream: "gateway_a", outcome: "timeout" };
      expect(sampleOf(down, "marketplace_upstream_request_duration_seconds_count", timeouts)).toBe(1);
    } finally {
      metrics.close();
    }
  });

  test("scrapes that arrive together share one reading of the database", async () => {
    let reads = 0;
    const metrics = createMarketplaceMetrics({
      readFigures: async () => {
        reads++;
        await Bun.sleep(20);
        return figures(0);
      },
      readBreakers: noBreakers,
    });
    try {
      const pages = await Promise.all([metrics.render(), metrics.render(), metrics.render()]);
      expect(reads).toBe(1);
      expect(new Set(pages).size).toBe(1);
      await metrics.render();
      expect(reads).toBe(2);
    } finally {
      metrics.close();
    }
  });

  test("a closed registry hears no more upstream calls", async () => {
    const metrics = createMarketplaceMetrics({ readFigures: async () => figures(0), readBreakers: noBreakers });
    metrics.close();
    publishUpstreamCall({ name: "provider", method: "GET", outcome: "ok", seconds: 0.1 });
    const samples = parseExposition(await metrics.render());
    expect(sampleOf(samples, "marketplace_upstream_request_duration_seconds_count", { upstream: "provider" })).toBe(
      undefined,
    );
  });

  test("each gateway's breaker: 1 for its state and 0 for the others, with its failures in a row", async () => {
    const metrics = createMarketplaceMetrics({
      readFigures: async () => figures(0),
      readBreakers: async () => [
        { gateway: "gateway_a", environment: "live", state: "open", consecutive_failures: 5, opened_at: new Date() },
        { gateway: "gateway_b", environment: "live", state: "closed", consecutive_failures: 0, opened_at: null },
      ],
    });
    try {
      const samples = parseExposition(await metrics.render());
      const stateOf = (gateway: string, state: string) =>
        sampleOf(samples, "marketplace_gateway_breaker_state", { gateway, environment: "live", state });
      expect([stateOf("gateway_a", "open"), stateOf("gateway_a", "half_open"), stateOf("gateway_a", "closed")]).toEqual(
        [1, 0, 0],
      );
      expect(stateOf("gateway_b", "closed")).toBe(1);
      const failures = { gateway: "gateway_a", environment: "live" };
      expect(sampleOf(samples, "marketplace_gateway_breaker_consecutive_failures", failures)).toBe(5);
    } finally {
      metrics.close();
    }
  });
});
