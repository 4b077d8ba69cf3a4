import { describe, expect, test } from "bun:test";
import { Histogram, Registry } from "prom-client";
import { RequestDurations } from "../../../adapters/metrics/request-durations.ts";
import type { AnsweredRequest } from "../../../kit/request-context.ts";

const ANSWERS: AnsweredRequest[] = [
  { method: "GET", route: "/api/products", status: 200, seconds: 0.0004 },
  { method: "GET", route: "/api/products", status: 200, seconds: 0.005 },
  { method: "GET", route: "/api/products", status: 304, seconds: 0.0051 },
  { method: "POST", route: "/api/checkout", status: 201, seconds: 0.3 },
  { method: "POST", route: "/api/checkout", status: 422, seconds: 10 },
  { method: "POST", route: "/api/checkout", status: 502, seconds: 42 },
  { method: "GET", route: "", status: 404, seconds: 0.001 },
  { method: "GET", route: "/api/admin/orders/:id", status: 101, seconds: 2.5 },
];

/** The exposition's lines in a stable order: series order is not part of the format. */
const linesOf = async (registry: Registry) => (await registry.metrics()).split("\n").sort();

describe("the request duration histogram", () => {
  test("writes what prom-client's own histogram writes for the same requests", async () => {
    const ours = new Registry();
    const durations = new RequestDurations(ours);
    const reference = new Registry();
    const theirs = new Histogram({
      name: "marketplace_http_request_duration_seconds",
      help: "HTTP requests answered, by method, route template and status class.",
      labelNames: ["method", "route", "status_class"] as const,
      registers: [reference],
    });
    for (const answered of ANSWERS) {
      durations.record(answered);
      const { method, route, status, seconds } = answered;
      theirs.observe({ method, route: route || "unmatched", status_class: `${Math.floor(status / 100)}xx` }, seconds);
    }
    expect(await linesOf(ours)).toEqual(await linesOf(reference));
    expect(await ours.metrics()).toContain(
      'marketplace_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/products",status_class="2xx"} 2',
    );
    // The JSON form too (prom-client's adds exemplars, null since they are off).
    const canonical = async (registry: Registry) =>
      ((await registry.getMetricsAsJSON())[0]?.values ?? [])
        .map((v) =>
          JSON.stringify([(v as { metricName?: string }).metricName, v.value, Object.entries(v.labels).sort()]),
        )
        .sort();
    expect(await canonical(ours)).toEqual(await canonical(reference));
  });

  test("prom-client's own ways in are refused rather than counted where nothing reads", () => {
    const durations = new RequestDurations(new Registry());
    expect(() => durations.observe({ method: "GET" }, 1)).toThrow("record()");
    expect(() => durations.startTimer()).toThrow("record()");
    expect(() => durations.labels("GET", "/", "2xx")).toThrow("record()");
  });

  test("a reset forgets every series", async () => {
    const registry = new Registry();
    const durations = new RequestDurations(registry);
    durations.record({ method: "GET", route: "/api/products", status: 200, seconds: 0.01 });
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain("_bucket");
    durations.record({ method: "GET", route: "/api/products", status: 200, seconds: 0.01 });
    expect(await registry.metrics()).toContain('status_class="2xx"} 1');
  });
});
