import { Elysia, t } from "elysia";
import { constantTimeEqual } from "../../kit/hmac.ts";
import { HttpProblem } from "../../kit/problem.ts";
import type { RequestObserver } from "../../kit/request-context.ts";

/** What `/metrics` serves; told of every answered request, whichever path answered it. */
export interface MetricsExposition {
  readonly contentType: string;
  render(): Promise<string>;
  readonly observeRequest: RequestObserver;
}

export interface MetricsDeps {
  readonly metrics: MetricsExposition;
  /** `METRICS_TOKEN`; without one, the metrics are served only on the loopback listener. */
  readonly metricsToken?: string;
}

/** The exposition as an answer, never cached: a scrape reads the figures of its moment. */
export async function metricsResponse(metrics: Pick<MetricsExposition, "contentType" | "render">): Promise<Response> {
  return new Response(await metrics.render(), {
    headers: { "content-type": metrics.contentType, "cache-control": "no-store" },
  });
}

/**
 * `GET /metrics` on the public port, for a scraper holding `METRICS_TOKEN`. Without a token
 * configured it is a 404 here: the metrics are then served by the loopback listener alone
 * (`METRICS_HOST`, `METRICS_PORT`), so a reverse proxy on the same host cannot expose them.
 */
export function createMetricsRoutes(deps: MetricsDeps) {
  const expected = deps.metricsToken ? `Bearer ${deps.metricsToken}` : undefined;
  return new Elysia({ name: "metrics-routes", tags: ["health"] }).get(
    "/metrics",
    ({ request, set }) => {
      if (expected === undefined) {
        throw new HttpProblem(404, "METRICS_NOT_HERE", "Metrics are served on the loopback listener (METRICS_PORT).");
      }
      if (!constantTimeEqual(request.headers.get("authorization") ?? "", expected)) {
        set.headers["www-authenticate"] = 'Bearer realm="metrics"';
        throw new HttpProblem(401, "METRICS_TOKEN_REQUIRED", "Send the metrics token as a bearer credential.");
      }
      return metricsResponse(deps.metrics);
    },
    {
      response: t.String({ description: "Prometheus text exposition format 0.0.4", contentMediaType: "text/plain" }),
      detail: {
        summary: "Prometheus metrics: requests, jobs, webhooks, fulfillments, deliveries, upstream calls",
        description:
          "Needs `Authorization: Bearer <METRICS_TOKEN>`. Without METRICS_TOKEN it answers 404 and the metrics are served on METRICS_HOST:METRICS_PORT (loopback) instead.",
      },
    },
  );
}
