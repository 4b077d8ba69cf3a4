import type postgres from "postgres";
import type { WebhookReplay, WebhookReplayRepository } from "../../application/outgoing-webhooks/replay-ports.ts";
import { isUuid } from "../shared/ids.ts";
import type { Queryable } from "./database.ts";
import { newestFirst } from "./keyset-page.ts";

/**
 * Replays and their cursors. Progress is counted from the deliveries each replay sent, by state,
 * when asked: nothing has to be kept in step as a delivery's later attempts succeed or die.
 */
export function createPostgresWebhookReplayRepository(sql: Queryable): WebhookReplayRepository {
  // The events a replay sends: its window, of the types its endpoint subscribes to, and, when it
  // asked for the failed ones only, those not delivered to the endpoint.
  const matching = () => sql`
    event.type = any(endpoint.events)
    and event.created_at >= replay.since and event.created_at < replay.until
    and (not replay.only_failed or not exists (
      select 1 from webhook_deliveries delivery
      where delivery.endpoint_id = replay.endpoint_id and delivery.event_id = event.id and delivery.state = 'succeeded'))`;

  // A replay with its deliveries counted by state.
  const withProgress = (where: postgres.Fragment, tail: postgres.Fragment = sql``) => sql<WebhookReplay[]>`
    select replay.id, replay.endpoint_id, replay.since, replay.until, replay.only_failed, replay.status,
           replay.total, replay.processed, replay.created_at, replay.finished_at, replay.last_error,
           counts.sent, counts.failed, counts.pending
    from webhook_replays replay
    cross join lateral (
      select count(*) filter (where state = 'succeeded')::int as sent,
             count(*) filter (where state = 'dead')::int as failed,
             count(*) filter (where state = 'pending')::int as pending
      from webhook_deliveries where replay_id = replay.id) counts
    where ${where} ${tail}`;

  async function find(replayId: string, endpointId?: string): Promise<WebhookReplay | undefined> {
    if (!isUuid(replayId) || (endpointId !== undefined && !isUuid(endpointId))) return undefined;
    const [row] = await withProgress(
      endpointId === undefined
        ? sql`replay.id = ${replayId}`
        : sql`replay.id = ${replayId} and replay.endpoint_id = ${endpointId}`,
    );
    return row;
  }

  return {
    async start(window) {
      const [row] = await sql<{ id: string }[]>`
        insert into webhook_replays (endpoint_id, since, until, only_failed, total)
        select replay.endpoint_id, replay.since, replay.until, replay.only_failed,
               (select count(*) from webhook_endpoints endpoint join outgoing_events event on ${matching()}
                where endpoint.id = replay.endpoint_id)
        from (select ${window.endpoint_id}::uuid as endpoint_id, ${window.since}::timestamptz as since,
                     ${window.until}::timestamptz as until, ${window.only_failed}::boolean as only_failed) replay
        on conflict (endpoint_id) where status = 'running' do nothing
        returning id`;
      return row && find(row.id);
    },

    find: (endpointId, replayId) => find(replayId, endpointId),

    async list(endpointId, page) {
      if (!isUuid(endpointId)) return { items: [], next_cursor: null };
      const keyset = newestFirst<WebhookReplay>(sql, page);
      return keyset.cut(
        await withProgress(sql`replay.endpoint_id = ${endpointId} ${keyset.after}`, keyset.orderAndLimit),
      );
    },

    // The cursor and the window's end are read first, so the events a step reads are one range of
    // the (created_at, id) index, bounded on both sides: the next ones, not the rest of the window sorted.
    // As text, to keep the microseconds a JavaScript Date would drop.
    async next(replayId, limit) {
      if (!isUuid(replayId)) return [];
      const [replay] = await sql<{ since: string; until: string; at: string | null; event_id: string | null }[]>`
        select since::text, until::text, cursor_created_at::text as at, cursor_event_id as event_id
        from webhook_replays where id = ${replayId} and status = 'running'`;
      if (!replay) return [];
      const after =
        replay.at === null || replay.event_id === null
          ? sql`event.created_at >= ${replay.since}::text::timestamptz`
          : sql`(event.created_at, event.id) > (${replay.at}::text::timestamptz, ${replay.event_id}::uuid)`;
      return sql<{ id: string }[]>`
        select event.id
        from webhook_replays replay
        join webhook_endpoints endpoint on endpoint.id = replay.endpoint_id
        join outgoing_events event
          on ${after} and event.created_at < ${replay.until}::text::timestamptz and ${matching()}
        where replay.id = ${replayId}
        order by event.created_at, event.id
        limit ${limit}`;
    },

    // A failed replay is taken up again only while no other replay of its endpoint runs: the
    // one-running index would refuse it, and two replays must not interleave their events.
    async claim(replayId) {
      if (!isUuid(replayId)) return undefined;
      const [row] = await sql<{ lease: number }[]>`
        update webhook_replays replay
        set lease = lease + 1, status = 'running', finished_at = null, last_error = null
        where replay.id = ${replayId}
          and (replay.status = 'running' or (replay.status = 'failed' and not exists (
            select 1 from webhook_replays other where other.endpoint_id = replay.endpoint_id and other.status = 'running')))
        returning lease`;
      return row?.lease;
    },

    async holds(replayId, lease) {
      if (!isUuid(replayId)) return false;
      const rows = await sql`
        select 1 from webhook_replays where id = ${replayId} and status = 'running' and lease = ${lease} for update`;
      return rows.length > 0;
    },

    async advance(replayId, event) {
      await sql`
        update webhook_replays replay
        set cursor_created_at = event.created_at, cursor_event_id = event.id, processed = replay.processed + 1
        from outgoing_events event
        where replay.id = ${replayId} and event.id = ${event.id}`;
    },

    async complete(replayId, at) {
      if (!isUuid(replayId)) return;
      await sql`update webhook_replays set status = 'completed', finished_at = ${at} where id = ${replayId} and status = 'running'`;
    },

    async fail(replayId, at, error, lease) {
      if (!isUuid(replayId)) return;
      await sql`
        update webhook_replays set status = 'failed', finished_at = ${at}, last_error = ${error}
        where id = ${replayId} and status = 'running' and lease = ${lease}`;
    },

    async cancel(endpointId, replayId, at) {
      if (!isUuid(replayId) || !isUuid(endpointId)) return false;
      const rows = await sql`
        update webhook_replays set status = 'cancelled', finished_at = ${at}
        where id = ${replayId} and endpoint_id = ${endpointId} and status = 'running'`;
      return rows.count > 0;
    },
  };
}
