import { hmacSha256Hex } from "../../../adapters/crypto/hmac.ts";
import { newGatewayId } from "../ids.ts";
import type { OutgoingWebhook } from "../webhook-deliverer.ts";

const API_VERSION = "2024-06-20";

/** `Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with the whole `whsec_...` secret. */
export async function stripeSignature(secret: string, body: string, unixSeconds: number): Promise<string> {
  return `t=${unixSeconds},v1=${await hmacSha256Hex(secret, `${unixSeconds}.${body}`)}`;
}

/** A Stripe Event `{id, object: "event", type, created, livemode, data: {object}}`, signed with `secret`. */
export function stripeEvent(secret: string, type: string, object: unknown, created: number): OutgoingWebhook {
  const eventId = newGatewayId("evt");
  const body = JSON.stringify({
    id: eventId,
    object: "event",
    api_version: API_VERSION,
    type,
    created,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  });
  return {
    gateway: "gateway_b",
    eventId,
    eventType: type,
    body,
    sign: async (payload, unixSeconds) => ({ "stripe-signature": await stripeSignature(secret, payload, unixSeconds) }),
  };
}
