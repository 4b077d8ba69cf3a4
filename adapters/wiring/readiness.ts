import type { Readiness } from "../http/health-routes.ts";
import type { Sql } from "../postgres/database.ts";
import { type Migration, migrationsApplied } from "../postgres/migrate.ts";

/** Answers within 2 s even when the database hangs mid-restart: a hanging probe is a failed one. */
export function createReadinessProbe(sql: Sql, migrations: Promise<readonly Migration[]>) {
  return async function checkReadiness(): Promise<Readiness> {
    const down = { database: false, migrations: false };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<typeof down>((resolve) => (timer = setTimeout(() => resolve(down), 2000)));
    const check = migrations
      .then((expected) => migrationsApplied(sql, expected))
      .then((migrationsOk) => ({ database: true, migrations: migrationsOk }))
      .catch(() => down);
    try {
      return await Promise.race([check, timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
}
