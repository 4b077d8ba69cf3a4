import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { projectPath } from "../asset-paths.ts";
import type { Sql } from "./database.ts";

const MIGRATIONS_DIR = projectPath("adapters", "postgres", "migrations");
/** Arbitrary but fixed: every instance contends for the same advisory lock. */
const MIGRATION_LOCK_KEY = 7_423_001;

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export async function loadMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f)).sort();
  return Promise.all(
    files.map(async (file) => ({
      version: Number(file.slice(0, 4)),
      name: file.slice(5, -4),
      sql: await readFile(join(dir, file), "utf8"),
    })),
  );
}

/**
 * Applies pending migrations in one transaction under an advisory lock, so instances starting
 * together apply each migration exactly once; the losers wait and then find nothing to do.
 */
export async function migrate(sql: Sql, migrations?: readonly Migration[]): Promise<number[]> {
  const all = migrations ?? (await loadMigrations());
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`;
    await tx`
      create table if not exists schema_migrations (
        version integer primary key,
        name text not null,
        applied_at timestamptz not null default now()
      )`;
    const rows = await tx<{ version: number }[]>`select version from schema_migrations`;
    const applied = new Set(rows.map((r) => r.version));
    const done: number[] = [];
    for (const migration of all) {
      if (applied.has(migration.version)) continue;
      await tx.unsafe(migration.sql);
      await tx`insert into schema_migrations (version, name) values (${migration.version}, ${migration.name})`;
      done.push(migration.version);
    }
    return done;
  });
}

/** True when every known migration is recorded: what readiness reports. */
export async function migrationsApplied(sql: Sql, migrations: readonly Migration[]): Promise<boolean> {
  const rows = await sql<{ version: number }[]>`
    select version from schema_migrations where version in ${sql(migrations.map((m) => m.version))}`;
  return rows.length === migrations.length;
}
