import { t } from "elysia";
import { WEBHOOK_REPLAY_STATUSES, type WebhookReplay } from "../../application/outgoing-webhooks/replay-ports.ts";
import { Int } from "../../kit/schema-types.ts";
import { named } from "./openapi-models.ts";
import { oneOf, Time, Uuid } from "./shared-schemas.ts";

export const ReplayWebhooksBody = named(
  "WebhookReplayInput",
  t.Object(
    {
      since: t.String({ format: "date-time", description: "The window's start (inclusive); in the past" }),
      until: t.Optional(
        t.String({
          format: "date-time",
          description: "The window's end (exclusive), after `since`; now when left out",
        }),
      ),
      only_failed: t.Optional(
        t.Boolean({ description: "Only events whose delivery to this endpoint has not succeeded (default false)" }),
      ),
    },
    { additionalProperties: false },
  ),
);

export const WebhookReplaySchema = named(
  "WebhookReplay",
  t.Object({
    id: Uuid,
    endpoint_id: Uuid,
    since: Time,
    until: Time,
    only_failed: t.Boolean(),
    status: oneOf(WEBHOOK_REPLAY_STATUSES),
    total: Int({ description: "Events that matched when the replay was asked for" }),
    processed: Int({ description: "Events sent a first time so far, in creation order" }),
    sent: Int({ description: "Its deliveries that succeeded" }),
    failed: Int({ description: "Its deliveries given up on (dead)" }),
    pending: Int({ description: "Its deliveries still being tried on the retry schedule" }),
    created_at: Time,
    finished_at: t.Nullable(Time),
    last_error: t.Nullable(
      t.String({ description: "Why its step job gave up, when `failed`; a redrive of that job resumes it" }),
    ),
  }),
);

export function toWebhookReplayBody(replay: WebhookReplay) {
  return {
    id: replay.id,
    endpoint_id: replay.endpoint_id,
    since: replay.since.toISOString(),
    until: replay.until.toISOString(),
    only_failed: replay.only_failed,
    status: replay.status,
    total: replay.total,
    processed: replay.processed,
    sent: replay.sent,
    failed: replay.failed,
    pending: replay.pending,
    created_at: replay.created_at.toISOString(),
    finished_at: replay.finished_at ? replay.finished_at.toISOString() : null,
    last_error: replay.last_error,
  };
}
