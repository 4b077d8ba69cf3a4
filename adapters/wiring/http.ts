import { loadBrowserPages } from "../http/browser-pages.ts";
import { createPostgresIdempotentRequestStore } from "../postgres/idempotent-request-store.ts";
import { createSecretCipher } from "../secrets/secret-cipher.ts";
import type { Platform } from "./platform.ts";

/** What the HTTP surface itself needs: loggers, body and rate limits, the browser pages and idempotency keys. */
export function wireHttp({ infra, config, logger, sql }: Platform) {
  return {
    logger,
    accessLogger: infra.accessLogger ?? logger,
    bodyLimitBytes: config.bodyLimitBytes,
    rateLimits: { limits: config.rateLimits, trustProxy: config.trustProxy },
    publicBaseUrl: config.publicBaseUrl,
    pages: loadBrowserPages({
      simulatorUrl: config.nodeEnv === "development" ? `http://127.0.0.1:${config.providerSimPort}` : undefined,
    }),
    idempotency: {
      // Answers are sealed with the secrets key: some show a secret once (a new API key).
      store: createPostgresIdempotentRequestStore(sql, createSecretCipher(infra.secretsKey)),
      hashSecret: `idempotency-request:${infra.secretsKey}`,
    },
  };
}
