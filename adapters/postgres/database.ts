import postgres from "postgres";
import { startEmbeddedPostgres } from "./embedded-postgres.ts";

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

function connect(url: string, max: number): Sql {
  return postgres(url, {
    max,
    onnotice: () => {},
    connect_timeout: 10,
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
