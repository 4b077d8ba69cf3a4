import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { lockDataDir } from "./data-dir-lock.ts";

export interface EmbeddedPostgres {
  /** A postgres:// URL on loopback, so the one postgres.js code path serves both modes. */
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * Starts PGlite (persisted under `dataDir`, or in memory when undefined) behind a loopback
 * socket speaking the PostgreSQL wire protocol.
 */
export async function startEmbeddedPostgres(dataDir: string | undefined): Promise<EmbeddedPostgres> {
  const unlock = dataDir ? lockDataDir(dataDir) : () => {};
  try {
    const db = await PGlite.create(dataDir);
    const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 16 });
    await server.start();
    return {
      url: `postgres://postgres@${server.getServerConn()}/postgres?sslmode=disable`,
      async stop() {
        await server.stop();
        await db.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}
