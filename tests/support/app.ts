import { loadConfig } from "../../adapters/config/config.ts";
import { gatewaySecretEnvironment } from "../../adapters/config/gateway-defaults.ts";
import type { AppDeps } from "../../adapters/http/app.ts";
import { loadLicenseKeyPair } from "../../adapters/licensing/license-signer.ts";
import { wireMarketplace } from "../../adapters/main.ts";
import type { Sql } from "../../adapters/postgres/database.ts";
import { createBunPasswordHasher } from "../../adapters/security/bun-password-hasher.ts";
import { createLogger, type Logger } from "../../kit/logger.ts";
import { TEST_JWT_SECRET, TEST_SECRETS_KEY } from "./credentials.ts";
import { hasRealPostgres } from "./database.ts";

export { TEST_JWT_SECRET, TEST_SECRETS_KEY };

import { testLogDestination } from "./test-logs.ts";

/** Debug-level lines into the run's scanned log directory, or silence outside `npm test`. */
function testLogger(): Logger {
  const destination = testLogDestination();
  return destination ? createLogger({ level: "debug", destination }) : createLogger({ level: "silent" });
}

/** One ephemeral license signing key for the whole test process. */
export const TEST_LICENSE_KEYS = await loadLicenseKeyPair({});

export const TEST_ISSUER = "marketplace";

export interface TestMarketplaceOptions {
  /** Environment as the process would see it: configuration and `SECRET_*`/`GATEWAY_*_KEY` values. */
  readonly env?: Readonly<Record<string, string>>;
  readonly logger?: Logger;
  readonly clock?: () => Date;
  readonly random?: () => number;
}

/** The production wiring over a real database, with argon2id tuned down so tests stay quick. */
export function createTestMarketplace(
  sql: Sql,
  overrides: Partial<AppDeps> = {},
  options: TestMarketplaceOptions = {},
) {
  // The simulator and test listeners live on loopback; SSRF tests turn the guards back on. Every
  // customer of a test checks out from one address, many times: the rate-limit tests set the limits.
  const env = {
    NODE_ENV: "test",
    JWT_SECRET: TEST_JWT_SECRET,
    ALLOW_PRIVATE_PROVIDER_URLS: "true",
    ALLOW_PRIVATE_WEBHOOK_URLS: "true",
    CHECKOUT_RATE_LIMIT_BURST: "1000000",
    ...options.env,
  };
  return wireMarketplace(
    {
      config: loadConfig(env),
      logger: options.logger ?? testLogger(),
      database: { sql, mode: hasRealPostgres ? "server" : "embedded" },
      jwtSecret: TEST_JWT_SECRET,
      secretsKey: TEST_SECRETS_KEY,
      env: { ...env, ...gatewaySecretEnvironment(env) },
      hasher: createBunPasswordHasher({ memoryCost: 1024, timeCost: 1 }),
      licenseKeys: TEST_LICENSE_KEYS,
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.random ? { random: options.random } : {}),
    },
    overrides,
  );
}

export function createTestApp(sql: Sql, overrides: Partial<AppDeps> = {}) {
  return createTestMarketplace(sql, overrides).app;
}
