import type { Sql } from "./database.ts";

/** How long an `Idempotency-Key` and its answer are kept: Stripe's 24 hours. */
export const IDEMPOTENCY_KEY_HOURS = 24;

/**
 * Deletes what only served its moment, once older than `olderThanDays`: emails sent or given up on
 * (they hold customers' names and addresses), outgoing webhook deliveries acknowledged or dead, and
 * events no delivery refers to any more, password reset links long expired, and sign-in attempts
 * long forgotten. Pending ones stay whatever their age. Idempotency keys go after their 24 hours,
 * whatever `olderThanDays`. In batches, so the minute tick never holds many row locks at once. The
 * audit log is kept. Returns the count.
 */
export async function pruneHistory(sql: Sql, options: { olderThanDays: number; batchSize?: number }): Promise<number> {
  const batchSize = options.batchSize ?? 5_000;
  const cutoff = sql`now() - ${options.olderThanDays}::float8 * interval '1 day'`;
  const batches = [
    () => sql`
      delete from emails where id in (
        select id from emails where state in ('sent', 'dead') and created_at < ${cutoff} limit ${batchSize})`,
    () => sql`
      delete from webhook_deliveries where id in (
        select id from webhook_deliveries
        where state in ('succeeded', 'dead') and created_at < ${cutoff} limit ${batchSize})`,
    () => sql`
      delete from outgoing_events where id in (
        select e.id from outgoing_events e
        where e.created_at < ${cutoff}
          and not exists (select 1 from webhook_deliveries d where d.event_id = e.id)
          and not exists (select 1 from jobs j where j.kind = 'webhook_fanout' and j.state in ('pending', 'running')
                          and j.payload->>'event_id' = e.id::text)
        limit ${batchSize})`,
    () => sql`
      delete from password_resets where token_hash in (
        select token_hash from password_resets where expires_at < ${cutoff} limit ${batchSize})`,
    () => sql`
      delete from email_links where token_hash in (
        select token_hash from email_links where expires_at < ${cutoff} limit ${batchSize})`,
    () => sql`
      delete from sign_in_attempts where (email, client) in (
        select email, client from sign_in_attempts
        where last_attempt_at < ${cutoff} and (locked_until is null or locked_until < now()) limit ${batchSize})`,
    () => sql`
      delete from idempotent_requests where (caller, route, key) in (
        select caller, route, key from idempotent_requests
        where created_at < now() - make_interval(hours => ${IDEMPOTENCY_KEY_HOURS}) limit ${batchSize})`,
  ];
  let total = 0;
  for (const batch of batches) {
    for (;;) {
      const deleted = await batch();
      total += deleted.count;
      if (deleted.count < batchSize) break;
    }
  }
  return total;
}
