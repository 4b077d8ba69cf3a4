import { loadConfig } from "../../adapters/config/config.ts";
import type { AppDeps } from "../../adapters/http/app.ts";
import { createLogger } from "../../adapters/logging/logger.ts";
import { wireMarketplace } from "../../adapters/main.ts";
import type { Sql } from "../../adapters/postgres/database.ts";
import { createBunPasswordHasher } from "../../adapters/security/bun-password-hasher.ts";
import { hasRealPostgres } from "./database.ts";

export const TEST_JWT_SECRET = "test-secret-0123456789-abcdefghijklmnop";
export const TEST_ISSUER = "marketplace";

/** The production wiring over a real database, with argon2id tuned down so tests stay quick. */
export function createTestMarketplace(
  sql: Sql,
  overrides: Partial<AppDeps> = {},
  env: Readonly<Record<string, string | undefined>> = {},
) {
  return wireMarketplace(
    {
      config: loadConfig({ NODE_ENV: "test", JWT_SECRET: TEST_JWT_SECRET }),
      logger: createLogger({ level: "silent" }),
      database: { sql, mode: hasRealPostgres ? "server" : "embedded" },
      jwtSecret: TEST_JWT_SECRET,
      secretsKey: "test-secrets-key-0123456789-abcdefghijkl",
      env,
      hasher: createBunPasswordHasher({ memoryCost: 1024, timeCost: 1 }),
    },
    overrides,
  );
}

export function createTestApp(sql: Sql, overrides: Partial<AppDeps> = {}) {
  return createTestMarketplace(sql, overrides).app;
}
