import type { Mutex } from "../../application/shared/ports.ts";
import type { Sql } from "./database.ts";

/**
 * A transaction-scoped advisory lock held while `work` runs: every instance on the database waits
 * for it. `work` uses the pool, not the locking transaction, so it needs a pool of two or more.
 */
export function createAdvisoryMutex(sql: Sql): Mutex {
  return {
    withLock(key, work) {
      return sql.begin(async (tx) => {
        await tx`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
        return work();
      }) as Promise<Awaited<ReturnType<typeof work>>>;
    },
    async tryWithLock(key, work) {
      return sql.begin(async (tx) => {
        const [row] = await tx<
          { got: boolean }[]
        >`select pg_try_advisory_xact_lock(hashtextextended(${key}, 0)) as got`;
        if (!row?.got) return { ran: false };
        await work();
        return { ran: true };
      });
    },
  };
}
