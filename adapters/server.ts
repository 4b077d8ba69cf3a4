import { Cron } from "croner";
import { type EnsureAdminDeps, makeEnsureAdmin } from "../application/identity/ensure-admin.ts";
import { SERVER_BODY_LIMIT } from "../kit/body-parser.ts";
import type { Logger } from "../kit/logger.ts";
import type { Config } from "./config/config.ts";
import { gatewaySecretEnvironment } from "./config/gateway-defaults.ts";
import { resolveGeneratedSecret } from "./config/generated-secret.ts";
import { consoleBundle } from "./http/console-bundle.ts";
import { startMetricsListener } from "./http/metrics-listener.ts";
import type { MetricsExposition } from "./http/metrics-routes.ts";
import { loadLicenseKeyPair } from "./licensing/license-signer.ts";
import { openDatabase } from "./postgres/database.ts";
import { migrate } from "./postgres/migrate.ts";
import { seedDemoCatalog } from "./seed/demo-catalog.ts";
import type { Infrastructure } from "./wiring/platform.ts";

/** What the server needs of the wired marketplace (see `wireMarketplace` in main.ts). */
export interface WiredMarketplace extends EnsureAdminDeps {
  readonly app: { fetch(request: Request): Response | Promise<Response> };
  readonly deps: Parameters<typeof seedDemoCatalog>[0];
  readonly worker: { start(): void; stop(options?: { timeoutMs?: number }): Promise<void> };
  readonly metrics: Pick<MetricsExposition, "contentType" | "render">;
  tick(): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * Opens the database, migrates, wires the marketplace (`wire`), then serves it, runs the job worker
 * and the minute tick, and stops all of them gracefully on SIGTERM or SIGINT.
 */
export async function startMarketplace(
  config: Config,
  loggers: {
    readonly logger: Logger;
    readonly accessLogger: Logger;
    /** Writes every log line still held in memory; called before the process exits. */
    readonly flush?: () => void;
  },
  wire: (infra: Infrastructure) => WiredMarketplace,
) {
  const { logger, accessLogger } = loggers;
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    poolMax: config.databasePoolMax,
  });
  const applied = await migrate(database.sql);
  logger.info({ applied, mode: database.mode }, "database ready");

  const jwtSecret = await resolveGeneratedSecret(config.jwtSecret, config.dataDir, "jwt-secret");
  const secretsKey = await resolveGeneratedSecret(config.secretsKey, config.dataDir, "secrets-key");
  const env = { ...process.env, ...gatewaySecretEnvironment(process.env) };
  const licenseKeys = await loadLicenseKeyPair({ privateKeyPem: config.licenseSigningKey, dataDir: config.dataDir });
  const marketplace = wire({
    config,
    logger,
    accessLogger,
    database,
    jwtSecret,
    secretsKey,
    env,
    licenseKeys,
  });
  if (config.admin) {
    const admin = await makeEnsureAdmin(marketplace)(config.admin);
    logger.info({ admin_id: admin.id, email: admin.email }, "admin account ensured");
  }
  if (config.seedDemo) {
    const seeded = await seedDemoCatalog(marketplace.deps, { providerBaseUrl: config.demoProviderBaseUrl });
    if (seeded.length > 0) logger.info({ products: seeded }, "seeded the demo catalog into an empty database");
  }

  // A console that does not build stops the start here, not at an admin's first visit.
  await consoleBundle();

  const server = Bun.serve({
    hostname: config.host,
    port: config.port,
    maxRequestBodySize: SERVER_BODY_LIMIT,
    fetch: marketplace.app.fetch,
  });
  logger.info({ url: `http://localhost:${server.port}`, database: database.mode }, "marketplace listening");
  const metricsServer = startMetricsListener(config.metrics, marketplace.metrics, logger);
  if (config.jobs.enabled) marketplace.worker.start();
  const tick = config.tickEnabled
    ? new Cron("* * * * *", { protect: true }, async () => {
        try {
          await marketplace.tick();
        } catch (error) {
          logger.error({ err: error }, "minute tick failed");
        }
      })
    : undefined;

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down: draining in-flight requests");
    const forced = setTimeout(() => {
      logger.error("shutdown timed out; exiting");
      loggers.flush?.();
      process.exit(1);
    }, config.shutdownTimeoutMs);
    await server.stop();
    await metricsServer?.stop();
    tick?.stop();
    await marketplace.worker.stop({ timeoutMs: config.shutdownTimeoutMs / 2 });
    await marketplace.close();
    await database.close();
    clearTimeout(forced);
    logger.info("shutdown complete");
    loggers.flush?.();
    process.exit(0);
  };
  // The state after an uncaught exception is unknown: log it as one JSON line and end the process, so
  // the supervisor starts a fresh one and the job leases of this one expire. (The database driver's
  // one known throw outside a query, a write to a connection that closed, is patched at install:
  // patches/postgres+3.4.9.patch.)
  process.on("uncaughtException", (error) => {
    logger.fatal({ err: error }, "uncaught exception");
    loggers.flush?.();
    process.exit(1);
  });
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}
