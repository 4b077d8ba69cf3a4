import { loadBrowserPages } from "../http/browser-pages.ts";
import type { Platform } from "./platform.ts";

/** What the HTTP surface itself needs: loggers, body and rate limits, and the browser pages. */
export function wireHttp({ infra, config, logger }: Platform) {
  return {
    logger,
    accessLogger: infra.accessLogger ?? logger,
    bodyLimitBytes: config.bodyLimitBytes,
    rateLimits: { limits: config.rateLimits, trustProxy: config.trustProxy },
    publicBaseUrl: config.publicBaseUrl,
    pages: loadBrowserPages({
      simulatorUrl: config.nodeEnv === "development" ? `http://127.0.0.1:${config.providerSimPort}` : undefined,
    }),
  };
}
