import { afterAll, beforeAll } from "bun:test";
import postgres from "postgres";
import { openDatabase, type Sql } from "../../adapters/postgres/database.ts";
import { startEmbeddedPostgres } from "../../adapters/postgres/embedded-postgres.ts";
import { migrate } from "../../adapters/postgres/migrate.ts";

/** Set by scripts/test.ts: the admin URL of a real server, or empty for PGlite. */
export const serverUrl = process.env.TEST_DATABASE_URL || undefined;
export const hasRealPostgres = serverUrl !== undefined;

export interface TestDatabase {
  readonly url: string;
  readonly sql: Sql;
  /** Pool size to use for extra connections: PGlite serves one connection at a time. */
  readonly poolMax: number;
  drop(): Promise<void>;
}

/** Every migrated test database not dropped yet: `tokenFor` gives its account a row in each. */
export const openTestDatabases = new Set<TestDatabase>();

/** A fresh database of its own (migrated unless asked not to): a new database on the server, or an in-memory PGlite. */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const database = await openTestDatabase(options.migrated ?? true);
  if (options.migrated === false) return database;
  openTestDatabases.add(database);
  return {
    ...database,
    async drop() {
      openTestDatabases.delete(database);
      await database.drop();
    },
  };
}

async function openTestDatabase(migrated: boolean): Promise<TestDatabase> {
  if (!serverUrl) {
    const embedded = await startEmbeddedPostgres(undefined);
    const database = await openDatabase({ url: embedded.url, dataDir: "", poolMax: 1 });
    if (migrated) await migrate(database.sql);
    return {
      url: embedded.url,
      sql: database.sql,
      poolMax: 1,
      async drop() {
        await database.sql.end({ timeout: 1 });
        await embedded.stop();
      },
    };
  }
  const name = `test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), dataDir: "", poolMax: 10 });
  if (migrated) await migrate(database.sql);
  return {
    url: url.toString(),
    sql: database.sql,
    poolMax: 10,
    async drop() {
      await database.close(1);
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end({ timeout: 1 });
    },
  };
}

export interface TestDatabaseHandle {
  readonly current: TestDatabase;
  /**
   * Stops something that uses the database before the database is dropped. Bun runs `afterAll`
   * hooks in declaration order, and the database is declared first, so a plain `afterAll` of a
   * worker or server would run after the drop.
   */
  onTeardown(stop: () => Promise<unknown> | unknown): void;
}

/** Registers a per-file database created before the file's tests and dropped after them. */
export function useTestDatabase(): TestDatabaseHandle {
  const holder: { current?: TestDatabase } = {};
  const teardowns: (() => Promise<unknown> | unknown)[] = [];
  beforeAll(async () => {
    holder.current = await createTestDatabase();
  });
  afterAll(async () => {
    for (const stop of teardowns.reverse()) await stop();
    await holder.current?.drop();
  }, 30_000);
  return {
    get current() {
      if (!holder.current) throw new Error("test database used outside a test");
      return holder.current;
    },
    onTeardown(stop) {
      teardowns.push(stop);
    },
  };
}
