import { describe, expect, test } from "bun:test";
import { startMetricsListener } from "../../../adapters/http/metrics-listener.ts";
import { createLogger } from "../../../kit/logger.ts";

const exposition = { contentType: "text/plain; version=0.0.4; charset=utf-8", render: async () => "up 1\n" };

function capturedLogger() {
  const lines: string[] = [];
  return { lines, logger: createLogger({ level: "info", destination: { write: (line: string) => lines.push(line) } }) };
}

describe("the loopback metrics listener", () => {
  test("without a token it serves GET /metrics on loopback, and a problem for anything else", async () => {
    const { logger, lines } = capturedLogger();
    const server = startMetricsListener({ token: undefined, host: "127.0.0.1", port: 0 }, exposition, logger);
    if (!server) throw new Error("the listener did not start");
    try {
      const response = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe(exposition.contentType);
      expect(await response.text()).toBe("up 1\n");
      for (const [method, path] of [
        ["GET", "/"],
        ["POST", "/metrics"],
        ["GET", "/api/products"],
      ] as const) {
        const other = await fetch(`http://127.0.0.1:${server.port}${path}`, { method });
        expect(other.status).toBe(404);
        expect(other.headers.get("content-type")).toStartWith("application/problem+json");
      }
      expect(lines.join("")).toContain(`http://127.0.0.1:${server.port}/metrics`);
    } finally {
      server.stop(true);
    }
  });

  test("with a token there is no listener: the public port serves the metrics to its bearer", () => {
    const { logger } = capturedLogger();
    expect(startMetricsListener({ token: "a".repeat(32), host: "127.0.0.1", port: 0 }, exposition, logger)).toBe(
      undefined,
    );
  });

  test("a port already taken is logged and the shop goes on", () => {
    const holder = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const taken = Number(holder.port);
    const { logger, lines } = capturedLogger();
    try {
      const server = startMetricsListener({ token: undefined, host: "127.0.0.1", port: taken }, exposition, logger);
      expect(server).toBe(undefined);
      expect(lines.join("")).toContain(`port ${taken} (METRICS_PORT) is already in use`);
    } finally {
      holder.stop(true);
    }
  });
});
