import postgres from "postgres";

export type Sql = postgres.Sql;
/** Repository functions accept either, so they run inside or outside a transaction. */
export type Queryable = postgres.Sql | postgres.TransactionSql;

export interface Database {
  readonly sql: Sql;
  /** `embedded` is PGlite: one connection, no cross-connection NOTIFY. */
  readonly mode: "server" | "embedded";
  close(timeoutSeconds?: number): Promise<void>;
}

export interface DatabaseOptions {
  readonly url: string | undefined;
  readonly dataDir: string;
  readonly poolMax: number;
}

/** Money and counts are int8; every value we store stays far below 2^53, so a number is exact. */
const BIGINT_AS_NUMBER = {
  to: 20,
  from: [20],
  serialize: (value: number) => String(value),
  parse: (value: string) => Number(value),
};

/**
 * Seconds before a lost connection dials again. The driver counts failures across the whole pool
 * and by default waits up to 20 s, so after a database restart every connection would sit idle long
 * after the server is back; capped at one second, the pool is whole again within a second or two.
 */
export function reconnectDelaySeconds(failures: number): number {
  return Math.min(0.05 * 2 ** failures, 1) * (0.5 + Math.random() / 2);
}

function connect(url: string, max: number): Sql {
  return postgres(url, {
    max,
    onnotice: () => {},
    // Below Bun.serve's 10 s idle time-out, so a request waiting on a connection gets its 503.
    connect_timeout: 5,
    backoff: reconnectDelaySeconds,
    idle_timeout: 60,
    types: { bigint: BIGINT_AS_NUMBER },
    transform: { undefined: null },
  });
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    const sql = connect(options.url, options.poolMax);
    return { sql, mode: "server", close: (timeout = 5) => sql.end({ timeout }) };
  }
  // Loaded only here: a server deployment never holds PGlite's code in memory.
  const { startEmbeddedPostgres } = await import("./embedded-postgres.ts");
  const embedded = await startEmbeddedPostgres(options.dataDir);
  // PGlite runs one backend; a single connection keeps transactions from interleaving.
  const sql = connect(embedded.url, 1);
  return {
    sql,
    mode: "embedded",
    async close(timeout = 5) {
      await sql.end({ timeout });
      await embedded.stop();
    },
  };
}

/** Driver-side codes of a connection that could not be made or was lost. */
const CONNECTION_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * True when the error says the database cannot be reached right now (connection refused or lost,
 * server shutting down or starting, too many connections) rather than that a query is wrong.
 * Such failures are worth a 503 and a retry, never a 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "string") return false;
  // Through a Unix socket the server's socket file is gone while it is down: an outage, unlike a
  // missing file anywhere else.
  if (code === "ENOENT") return (error as { syscall?: unknown }).syscall === "connect";
  return (
    CONNECTION_CODES.has(code) ||
    code.startsWith("08") || // connection exception
    code === "57P01" || // admin shutdown
    code === "57P02" || // crash shutdown
    code === "57P03" || // cannot connect now (starting up)
    code === "53300" // too many connections
  );
}

/** A Postgres unique violation (23505): a row with the same key was written meanwhile. */
export const isUniqueViolation = (error: unknown) => (error as { code?: unknown }).code === "23505";
