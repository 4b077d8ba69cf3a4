import { t } from "elysia";
import { PADDLE_EVENT_TYPES_ACTED_ON } from "../gateways/gateway-a/paddle-events.ts";
import { STRIPE_EVENT_TYPES_ACTED_ON } from "../gateways/gateway-b/stripe-events.ts";
import { named } from "./openapi-models.ts";

/**
 * What each gateway posts, for the document only: a webhook is verified and stored as its raw
 * bytes, and the job that reads it later refuses what it cannot use. Types not listed are stored
 * and ignored.
 */
export const GatewayAEventSchema = named(
  "GatewayAEvent",
  t.Object(
    {
      event_id: t.String({ description: "Unique per event (`evt_...`); a repeat is stored once" }),
      event_type: t.String({
        description: `Acted on: ${PADDLE_EVENT_TYPES_ACTED_ON.join(", ")}`,
      }),
      occurred_at: t.Optional(t.String({ format: "date-time" })),
      notification_id: t.Optional(t.String()),
      data: t.Object(
        {
          id: t.String({ description: "The transaction (`txn_`), subscription (`sub_`) or adjustment (`adj_`)" }),
          custom_data: t.Optional(t.Nullable(t.Object({ order_id: t.Optional(t.String()) }))),
          currency_code: t.Optional(t.String()),
          details: t.Optional(
            t.Object({
              totals: t.Optional(
                t.Object({
                  grand_total: t.String({ description: "Minor units, as a string" }),
                  tax: t.Optional(t.String()),
                  subtotal: t.Optional(t.String()),
                  discount: t.Optional(t.String()),
                }),
              ),
            }),
          ),
        },
        { additionalProperties: true },
      ),
    },
    { additionalProperties: true },
  ),
);

export const GatewayBEventSchema = named(
  "GatewayBEvent",
  t.Object(
    {
      id: t.String({ description: "Unique per event (`evt_...`); a repeat is stored once" }),
      object: t.Optional(t.Literal("event")),
      type: t.String({
        description: `Acted on: ${STRIPE_EVENT_TYPES_ACTED_ON.join(", ")}`,
      }),
      created: t.Optional(t.Integer({ description: "Unix seconds" })),
      livemode: t.Optional(t.Boolean()),
      data: t.Object({
        object: t.Record(t.String(), t.Unknown(), {
          description: "The session, invoice, subscription, charge or dispute the event is about",
        }),
      }),
    },
    { additionalProperties: true },
  ),
);

export const WebhookReceiptSchema = named(
  "WebhookReceipt",
  t.Object({
    received: t.Literal(true),
    duplicate: t.Boolean({ description: "True when this event id was already stored; nothing new is queued" }),
  }),
);
