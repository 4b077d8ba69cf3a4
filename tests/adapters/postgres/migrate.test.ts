import { describe, expect, test } from "bun:test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../../adapters/postgres/database.ts";
import { loadMigrations, migrate, migrationsApplied } from "../../../adapters/postgres/migrate.ts";
import { createTestDatabase, hasRealPostgres } from "../../support/database.ts";

describe("migrate", () => {
  test("loads numbered files in order and ignores anything else", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mkt-migrations-"));
    try {
      await writeFile(join(dir, "0002_second.sql"), "select 2");
      await writeFile(join(dir, "0001_first.sql"), "select 1");
      await writeFile(join(dir, "notes.txt"), "not a migration");
      expect((await loadMigrations(dir)).map((m) => [m.version, m.name])).toEqual([
        [1, "first"],
        [2, "second"],
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test("a second run applies nothing and readiness reports applied", async () => {
    const db = await createTestDatabase();
    try {
      expect(await migrate(db.sql)).toEqual([]);
      expect(await migrationsApplied(db.sql, await loadMigrations())).toBeTrue();
      const extra = [...(await loadMigrations()), { version: 9999, name: "future", sql: "select 1" }];
      expect(await migrationsApplied(db.sql, extra)).toBeFalse();
    } finally {
      await db.drop();
    }
  });

  test("a failing migration rolls back entirely", async () => {
    const db = await createTestDatabase();
    try {
      const broken = [{ version: 9001, name: "broken", sql: "create table half_done (id int); select * from nowhere" }];
      await expect(migrate(db.sql, broken)).rejects.toThrow();
      const [row] = await db.sql`select to_regclass('half_done') as t`;
      expect(row?.t).toBeNull();
    } finally {
      await db.drop();
    }
  });

  test.skipIf(!hasRealPostgres)("concurrent runs on separate connections apply each migration once", async () => {
    const db = await createTestDatabase({ migrated: false });
    try {
      const pools = await Promise.all(
        Array.from({ length: 4 }, () => openDatabase({ url: db.url, dataDir: "", poolMax: 2 })),
      );
      const results = await Promise.all(pools.map((p) => migrate(p.sql)));
      await Promise.all(pools.map((p) => p.close(1)));
      expect(results.flat()).toEqual((await loadMigrations()).map((m) => m.version));
    } finally {
      await db.drop();
    }
  });
});
