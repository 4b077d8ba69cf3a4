import { type AppDeps, createApp } from "../../adapters/http/app.ts";
import { createLogger } from "../../adapters/logging/logger.ts";
import type { Sql } from "../../adapters/postgres/database.ts";
import { loadMigrations, migrationsApplied } from "../../adapters/postgres/migrate.ts";
import { createPostgresUserRepository } from "../../adapters/postgres/user-repository.ts";
import { createBunPasswordHasher } from "../../adapters/security/bun-password-hasher.ts";
import { makeAuthenticate } from "../../application/identity/authenticate.ts";
import { makeGetUser } from "../../application/identity/get-user.ts";
import { makeRegisterCustomer } from "../../application/identity/register-customer.ts";

export const TEST_JWT_SECRET = "test-secret-0123456789-abcdefghijklmnop";
export const TEST_ISSUER = "marketplace";

/** The real app over a real database, with argon2id tuned down so tests stay quick. */
export function createTestApp(sql: Sql, overrides: Partial<AppDeps> = {}) {
  const users = createPostgresUserRepository(sql);
  const hasher = createBunPasswordHasher({ memoryCost: 1024, timeCost: 1 });
  return createApp({
    logger: createLogger({ level: "silent" }),
    bodyLimitBytes: 1024 * 1024,
    auth: { secret: TEST_JWT_SECRET, issuer: TEST_ISSUER, ttlSeconds: 3600 },
    registerCustomer: makeRegisterCustomer({ users, hasher }),
    authenticate: makeAuthenticate({ users, hasher }),
    getUser: makeGetUser({ users }),
    async checkReadiness() {
      return { database: true, migrations: await migrationsApplied(sql, await loadMigrations()) };
    },
    ...overrides,
  });
}
