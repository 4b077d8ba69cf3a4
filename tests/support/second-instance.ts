import { beforeAll } from "bun:test";
import pino from "pino";
import { openDatabase } from "../../adapters/postgres/database.ts";
import { createTestMarketplace } from "./app.ts";
import { hasRealPostgres, type TestDatabaseHandle } from "./database.ts";
import { type E2e, FAST_JOBS, SANDBOX } from "./e2e.ts";
import { SIM_TOKEN } from "./provider-sim.ts";

/**
 * A second marketplace on the same database and the same sandboxes, as a second instance behind a
 * load balancer runs: its own pool, its own HTTP server. `url` is set once it listens (real
 * PostgreSQL only).
 */
export function useSecondInstance(db: TestDatabaseHandle, e2e: E2e, env: Readonly<Record<string, string>> = {}) {
  const second: { url?: string; close?: () => Promise<void> } = {};
  beforeAll(async () => {
    if (!hasRealPostgres) return;
    const pool = await openDatabase({ url: db.current.url, dataDir: "", poolMax: 10 });
    const marketplace = createTestMarketplace(
      pool.sql,
      {},
      {
        env: {
          ...SANDBOX,
          ...FAST_JOBS,
          ...env,
          GATEWAY_A_SANDBOX_BASE_URL: `${e2e.sim.url}/gateway_a`,
          GATEWAY_B_SANDBOX_BASE_URL: `${e2e.sim.url}/gateway_b`,
          SECRET_SIM_TOKEN: SIM_TOKEN,
          PUBLIC_BASE_URL: e2e.url,
        },
        logger: pino({ level: "silent" }),
      },
    );
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: marketplace.app.fetch });
    second.url = `http://127.0.0.1:${server.port}`;
    second.close = async () => {
      server.stop(true);
      await marketplace.close();
      await pool.close(1);
    };
  });
  db.onTeardown(() => second.close?.());
  return second;
}
