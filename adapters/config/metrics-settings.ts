import { ConfigError, type Env, integer, text } from "../../kit/env-parsers.ts";

export interface MetricsSettings {
  /** `METRICS_TOKEN`: `/metrics` on the public port for a bearer of it. */
  readonly token: string | undefined;
  /** Without a token, the loopback listener that serves the metrics to anyone on this host. */
  readonly host: string;
  /** 0 lets the system choose (the address is logged). */
  readonly port: number;
}

const MIN_TOKEN_LENGTH = 16;
const LOOPBACK = /^(127(\.\d{1,3}){3}|::1|localhost)$/;

/**
 * Metrics are never open to the network: either a token guards them on the public port, or they
 * are served without one on a loopback address only.
 */
export function metricsSettings(env: Env): MetricsSettings {
  const token = text(env, "METRICS_TOKEN");
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH) {
    throw new ConfigError("METRICS_TOKEN", `must be at least ${MIN_TOKEN_LENGTH} characters long`, undefined);
  }
  const host = text(env, "METRICS_HOST") ?? "127.0.0.1";
  if (!LOOPBACK.test(host)) {
    throw new ConfigError("METRICS_HOST", "must be a loopback address (127.0.0.1, ::1 or localhost)", host);
  }
  return { token, host, port: integer(env, "METRICS_PORT", 9464, 0, 65535) };
}
