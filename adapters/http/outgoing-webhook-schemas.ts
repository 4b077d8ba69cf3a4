import { t } from "elysia";
import {
  OUTGOING_EVENT_TYPES,
  type WebhookDelivery,
  type WebhookEndpoint,
} from "../../application/outgoing-webhooks/ports.ts";
import { WEBHOOK_DELIVERY_STATES, webhookIdOf } from "../../domain/outgoing-webhooks/webhook-delivery.ts";
import { MAX_URL_LENGTH } from "../../domain/shared/http-url.ts";
import { Int } from "../../kit/schema-types.ts";
import { named } from "./openapi-models.ts";
import { oneOf, Time, Uuid } from "./shared-schemas.ts";

export const OutgoingEventTypeSchema = named("OutgoingEventType", oneOf(OUTGOING_EVENT_TYPES));
export const WebhookDeliveryStateSchema = named("WebhookDeliveryState", oneOf(WEBHOOK_DELIVERY_STATES));

const Events = t.Array(OutgoingEventTypeSchema, {
  minItems: 1,
  maxItems: OUTGOING_EVENT_TYPES.length * 2,
  description: "The event types sent to this endpoint; at least one",
});
const Url = t.String({ maxLength: MAX_URL_LENGTH, description: "http(s), on a public address" });
const Description = t.Nullable(t.String({ maxLength: 500 }));

// The bodies are named models so that the event types they list stay a reference in the document
// (openapi-models.ts: a model's component is written from its declaration).
export const CreateWebhookEndpointBody = named(
  "WebhookEndpointInput",
  t.Object({ url: Url, events: Events, description: t.Optional(Description) }, { additionalProperties: false }),
);

export const UpdateWebhookEndpointBody = named(
  "WebhookEndpointPatch",
  t.Object(
    { url: t.Optional(Url), events: t.Optional(Events), description: t.Optional(Description) },
    { additionalProperties: false },
  ),
);

const endpointFields = {
  id: Uuid,
  url: t.String(),
  events: t.Array(OutgoingEventTypeSchema),
  description: t.Nullable(t.String()),
  previous_secret_expires_at: t.Nullable(
    t.String({
      format: "date-time",
      description: "Until then deliveries also carry the rotated-out secret's signature",
    }),
  ),
  created_at: Time,
  updated_at: Time,
};

export const WebhookEndpointSchema = named("WebhookEndpoint", t.Object(endpointFields));

export const KeyedWebhookEndpointSchema = named(
  "KeyedWebhookEndpoint",
  t.Object({
    ...endpointFields,
    secret: t.String({ description: "`whsec_` and base64: shown in this answer only; keep it to verify signatures" }),
  }),
);

export const WebhookDeliverySchema = named(
  "WebhookDelivery",
  t.Object({
    id: Uuid,
    endpoint_id: Uuid,
    event_id: Uuid,
    event_type: OutgoingEventTypeSchema,
    webhook_id: t.String({ description: "The `webhook-id` header of every attempt" }),
    state: WebhookDeliveryStateSchema,
    attempts: Int(),
    replay_id: t.Nullable(Uuid, { description: "The replay that last sent it, if one did" }),
    last_status_code: t.Nullable(Int()),
    last_error: t.Nullable(t.String()),
    last_attempt_at: t.Nullable(Time),
    delivered_at: t.Nullable(Time),
    created_at: Time,
  }),
);

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toWebhookEndpointBody(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: [...endpoint.events],
    description: endpoint.description,
    previous_secret_expires_at: iso(endpoint.previous_secret_expires_at),
    created_at: endpoint.created_at.toISOString(),
    updated_at: endpoint.updated_at.toISOString(),
  };
}

export function toWebhookDeliveryBody(delivery: WebhookDelivery) {
  return {
    id: delivery.id,
    endpoint_id: delivery.endpoint_id,
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    webhook_id: webhookIdOf(delivery.id),
    state: delivery.state,
    attempts: delivery.attempts,
    replay_id: delivery.replay_id,
    last_status_code: delivery.last_status_code,
    last_error: delivery.last_error,
    last_attempt_at: iso(delivery.last_attempt_at),
    delivered_at: iso(delivery.delivered_at),
    created_at: delivery.created_at.toISOString(),
  };
}
