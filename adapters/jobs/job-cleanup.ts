import type { Sql } from "../postgres/database.ts";

/**
 * Deletes jobs that finished (`done`) more than `olderThanDays` ago; dead jobs stay for redrive.
 * Works in batches so the minute tick never holds many row locks at once. Returns the count.
 */
export async function deleteDoneJobs(
  sql: Sql,
  options: { olderThanDays: number; batchSize?: number },
): Promise<number> {
  const batchSize = options.batchSize ?? 5_000;
  let total = 0;
  for (;;) {
    const deleted = await sql`
      delete from jobs where id in (
        select id from jobs
        where state = 'done' and updated_at < now() - ${options.olderThanDays}::float8 * interval '1 day'
        limit ${batchSize}
      )`;
    total += deleted.count;
    if (deleted.count < batchSize) return total;
  }
}
