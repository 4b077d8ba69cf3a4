import { hmacSha256Hex } from "../../../kit/hmac.ts";
import { newGatewayId } from "../ids.ts";
import type { OutgoingWebhook } from "../webhook-deliverer.ts";

/** `Paddle-Signature: ts=<unix>;h1=<hex HMAC-SHA256 of "<ts>:<raw body>">`. */
export async function paddleSignature(secret: string, body: string | Uint8Array, unixSeconds: number): Promise<string> {
  return `ts=${unixSeconds};h1=${await hmacSha256Hex(secret, `${unixSeconds}:`, body)}`;
}

/** A Paddle notification `{event_id, event_type, occurred_at, notification_id, data}`, signed with `secret`. */
export function paddleEvent(secret: string, eventType: string, data: unknown, occurredAt: Date): OutgoingWebhook {
  const eventId = newGatewayId("evt");
  const body = JSON.stringify({
    event_id: eventId,
    event_type: eventType,
    occurred_at: occurredAt.toISOString(),
    notification_id: newGatewayId("ntf"),
    data,
  });
  return {
    gateway: "gateway_a",
    eventId,
    eventType,
    body,
    sign: async (payload, unixSeconds) => ({ "paddle-signature": await paddleSignature(secret, payload, unixSeconds) }),
  };
}
