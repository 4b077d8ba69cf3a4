import type { Logger } from "../../kit/logger.ts";
import { portInUseMessage } from "../../kit/port-in-use.ts";
import { problem, problemResponse } from "../../kit/problem.ts";
import type { MetricsSettings } from "../config/metrics-settings.ts";
import { type MetricsExposition, metricsResponse } from "./metrics-routes.ts";

const notFound = () => problemResponse(problem(404, "NOT_FOUND", "This listener serves GET /metrics only."));

/**
 * Without `METRICS_TOKEN`, the metrics are served on a listener of their own, bound to a loopback
 * address: a scraper on this host reads them, nothing outside it can. A port already taken (a
 * second instance on the host, say) is logged and the shop keeps serving: metrics never stop
 * sales. Returns the server, if it started.
 */
export function startMetricsListener(
  settings: MetricsSettings,
  metrics: Pick<MetricsExposition, "contentType" | "render">,
  logger: Logger,
) {
  if (settings.token !== undefined) return undefined;
  try {
    const server = Bun.serve({
      hostname: settings.host,
      port: settings.port,
      fetch: (request) =>
        new URL(request.url).pathname === "/metrics" && request.method === "GET"
          ? metricsResponse(metrics)
          : notFound(),
    });
    logger.info({ url: `http://${settings.host}:${server.port}/metrics` }, "metrics listening on loopback");
    return server;
  } catch (error) {
    const taken = portInUseMessage(error, settings.port, "METRICS_PORT");
    // A warning, not an error: a second instance on the same host is a normal deployment.
    logger.warn({ err: taken ? undefined : error }, `metrics not served: ${taken ?? "the listener did not start"}`);
    return undefined;
  }
}
