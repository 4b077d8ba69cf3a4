import type {
  OutgoingEventType,
  WebhookDelivery,
  WebhookDeliveryRepository,
} from "../../application/outgoing-webhooks/ports.ts";
import { isUuid } from "../shared/ids.ts";
import { columnList } from "./column-list.ts";
import type { Queryable } from "./database.ts";
import { newestFirst } from "./keyset-page.ts";
import { endpointSecretRef, type SecretCipher } from "./webhook-endpoint-repository.ts";

const COLUMNS = [
  "id",
  "endpoint_id",
  "event_id",
  "event_type",
  "state",
  "attempts",
  "redeliveries",
  "replay_id",
  "last_status_code",
  "last_error",
  "last_attempt_at",
  "delivered_at",
  "created_at",
];

interface OutgoingRow {
  readonly event_id: string;
  readonly event_type: OutgoingEventType;
  readonly event_data: Readonly<Record<string, unknown>>;
  readonly event_created_at: Date;
  readonly url: string;
  readonly secret_iv: Uint8Array;
  readonly secret_ciphertext: Uint8Array;
  readonly previous_secret_iv: Uint8Array | null;
  readonly previous_secret_ciphertext: Uint8Array | null;
  readonly previous_secret_expires_at: Date | null;
}

/** Deliveries of outgoing events; `outgoing` is the one place an endpoint's secrets are opened, to sign. */
export function createPostgresWebhookDeliveryRepository(
  sql: Queryable,
  cipher: SecretCipher,
): WebhookDeliveryRepository {
  const columns = columnList(sql, COLUMNS);

  async function find(deliveryId: string): Promise<WebhookDelivery | undefined> {
    if (!isUuid(deliveryId)) return undefined;
    const [row] = await sql<WebhookDelivery[]>`select ${columns} from webhook_deliveries where id = ${deliveryId}`;
    return row;
  }

  return {
    async fanOut(eventId) {
      if (!isUuid(eventId)) return [];
      const rows = await sql<{ id: string }[]>`
        insert into webhook_deliveries (endpoint_id, event_id, event_type)
        select endpoint.id, event.id, event.type
        from outgoing_events event join webhook_endpoints endpoint on event.type = any(endpoint.events)
        where event.id = ${eventId}
        on conflict (endpoint_id, event_id) do nothing
        returning id`;
      return rows.map((row) => row.id);
    },

    async find(endpointId, deliveryId) {
      const delivery = await find(deliveryId);
      return delivery?.endpoint_id === endpointId ? delivery : undefined;
    },

    async list(endpointId, filter, page) {
      if (!isUuid(endpointId) || (filter.replay_id !== undefined && !isUuid(filter.replay_id))) {
        return { items: [], next_cursor: null };
      }
      const keyset = newestFirst<WebhookDelivery>(sql, page);
      return keyset.cut(
        await sql<WebhookDelivery[]>`
        select ${columns} from webhook_deliveries
        where endpoint_id = ${endpointId} ${filter.state ? sql`and state = ${filter.state}` : sql``}
          ${filter.replay_id ? sql`and replay_id = ${filter.replay_id}` : sql``}
        ${keyset.after} ${keyset.orderAndLimit}`,
      );
    },

    async outgoing(deliveryId) {
      const delivery = await find(deliveryId);
      if (!delivery) return undefined;
      const [row] = await sql<OutgoingRow[]>`
        select event.id as event_id, event.type as event_type,
               event.data as event_data, event.created_at as event_created_at, endpoint.url,
               endpoint.secret_iv, endpoint.secret_ciphertext, endpoint.previous_secret_iv,
               endpoint.previous_secret_ciphertext, endpoint.previous_secret_expires_at
        from webhook_deliveries delivery
        join webhook_endpoints endpoint on endpoint.id = delivery.endpoint_id
        join outgoing_events event on event.id = delivery.event_id
        where delivery.id = ${deliveryId}`;
      if (!row) return undefined;
      const ref = endpointSecretRef(delivery.endpoint_id);
      const previous =
        row.previous_secret_iv && row.previous_secret_ciphertext
          ? await cipher.open(ref, { iv: row.previous_secret_iv, ciphertext: row.previous_secret_ciphertext })
          : null;
      return {
        delivery,
        event: { id: row.event_id, type: row.event_type, data: row.event_data, created_at: row.event_created_at },
        url: row.url,
        secrets: {
          current: await cipher.open(ref, { iv: row.secret_iv, ciphertext: row.secret_ciphertext }),
          previous,
          previous_expires_at: row.previous_secret_expires_at,
        },
      };
    },

    async recordAttempt(run, attempt) {
      await sql`
        update webhook_deliveries set
          state = ${attempt.state},
          attempts = attempts + 1,
          last_status_code = ${attempt.status_code},
          last_error = ${attempt.error},
          last_attempt_at = ${attempt.at},
          delivered_at = case when ${attempt.state} = 'succeeded' then ${attempt.at}::timestamptz else delivered_at end
        where id = ${run.id} and redeliveries = ${run.redeliveries} and state = 'pending'`;
    },

    async requeue(seen, jobKey) {
      const [row] = await sql<WebhookDelivery[]>`
        update webhook_deliveries set state = 'pending', attempts = 0, redeliveries = redeliveries + 1
        where id = ${seen.id} and redeliveries = ${seen.redeliveries}
          and (state <> 'pending' or not exists (
            select 1 from jobs where dedupe_key = ${jobKey} and state in ('pending', 'running')))
        returning ${columns}`;
      return row;
    },

    async replayRun(replayId, eventId) {
      if (!isUuid(replayId) || !isUuid(eventId)) return undefined;
      await sql`
        insert into webhook_deliveries (endpoint_id, event_id, event_type)
        select replay.endpoint_id, event.id, event.type
        from webhook_replays replay, outgoing_events event
        where replay.id = ${replayId} and event.id = ${eventId}
        on conflict (endpoint_id, event_id) do nothing`;
      const [row] = await sql<WebhookDelivery[]>`
        update webhook_deliveries
        set state = 'pending', attempts = 0, redeliveries = redeliveries + 1, replay_id = ${replayId}
        where endpoint_id = (select endpoint_id from webhook_replays where id = ${replayId}) and event_id = ${eventId}
        returning ${columns}`;
      return row;
    },
  };
}
