import { makeAuthenticate } from "../application/identity/authenticate.ts";
import { makeEnsureAdmin } from "../application/identity/ensure-admin.ts";
import { makeGetUser } from "../application/identity/get-user.ts";
import { makeRegisterCustomer } from "../application/identity/register-customer.ts";
import { type Config, ConfigError, loadConfig } from "./config/config.ts";
import { resolveJwtSecret } from "./config/jwt-secret.ts";
import { createApp } from "./http/app.ts";
import { createLogger, type Logger } from "./logging/logger.ts";
import { openDatabase } from "./postgres/database.ts";
import { loadMigrations, migrate, migrationsApplied } from "./postgres/migrate.ts";
import { createPostgresUserRepository } from "./postgres/user-repository.ts";
import { createBunPasswordHasher } from "./security/bun-password-hasher.ts";

function readConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

async function start(config: Config, logger: Logger) {
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    poolMax: config.databasePoolMax,
  });
  const { sql } = database;
  const migrations = await loadMigrations();
  const applied = await migrate(sql, migrations);
  logger.info({ applied, mode: database.mode }, "database ready");

  const users = createPostgresUserRepository(sql);
  const hasher = createBunPasswordHasher();
  if (config.admin) {
    const admin = await makeEnsureAdmin({ users, hasher })(config.admin);
    logger.info({ admin_id: admin.id, email: admin.email }, "admin account ensured");
  }

  const app = createApp({
    logger,
    bodyLimitBytes: config.bodyLimitBytes,
    auth: {
      secret: await resolveJwtSecret(config.jwtSecret, config.dataDir),
      issuer: config.jwtIssuer,
      ttlSeconds: config.jwtTtlSeconds,
    },
    registerCustomer: makeRegisterCustomer({ users, hasher }),
    authenticate: makeAuthenticate({ users, hasher }),
    getUser: makeGetUser({ users }),
    async checkReadiness() {
      try {
        return { database: true, migrations: await migrationsApplied(sql, migrations) };
      } catch {
        return { database: false, migrations: false };
      }
    },
  });

  const server = Bun.serve({
    hostname: config.host,
    port: config.port,
    // Bodies are capped by the app's parser with a problem+json 413; this is the hard backstop.
    maxRequestBodySize: config.bodyLimitBytes * 2,
    fetch: app.fetch,
  });
  logger.info({ url: `http://localhost:${server.port}`, database: database.mode }, "marketplace listening");

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down: draining in-flight requests");
    const forced = setTimeout(() => {
      logger.error("shutdown timed out; exiting");
      process.exit(1);
    }, config.shutdownTimeoutMs);
    await server.stop();
    await database.close();
    clearTimeout(forced);
    logger.info("shutdown complete");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

const config = readConfig();
const logger = createLogger({ level: config.logLevel, name: "marketplace" });
start(config, logger).catch((error: unknown) => {
  logger.fatal({ err: error }, "failed to start");
  process.exit(1);
});
