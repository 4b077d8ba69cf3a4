import { hmacSha256Hex } from "../../../kit/hmac.ts";
import { newGatewayId } from "../ids.ts";
import type { OutgoingWebhook } from "../webhook-deliverer.ts";

/**
 * The API version the sandbox's objects and events follow: the one `stripe@23.1.0` pins
 * (`Stripe.API_VERSION`), so the official SDK's types describe exactly what the sandbox sends.
 */
export const STRIPE_API_VERSION = "2026-10-28.endive";

/** `Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with the whole `whsec_...` secret. */
export async function stripeSignature(secret: string, body: string | Uint8Array, unixSeconds: number): Promise<string> {
  return `t=${unixSeconds},v1=${await hmacSha256Hex(secret, `${unixSeconds}.`, body)}`;
}

/**
 * A Stripe Event signed with `secret`. `previous` becomes `data.previous_attributes`, which Stripe
 * sends on `*.updated` events with the old values of the fields that changed.
 */
export function stripeEvent(
  secret: string,
  type: string,
  object: unknown,
  created: number,
  previous?: Record<string, unknown>,
): OutgoingWebhook {
  const eventId = newGatewayId("evt");
  const body = JSON.stringify({
    id: eventId,
    object: "event",
    api_version: STRIPE_API_VERSION,
    created,
    data: previous ? { object, previous_attributes: previous } : { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  });
  return {
    gateway: "gateway_b",
    eventId,
    eventType: type,
    body,
    sign: async (payload, unixSeconds) => ({ "stripe-signature": await stripeSignature(secret, payload, unixSeconds) }),
  };
}
