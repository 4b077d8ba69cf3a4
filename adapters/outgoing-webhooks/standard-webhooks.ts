import { createHmac, randomBytes } from "node:crypto";

/** How Standard Webhooks marks a symmetric signing secret. */
export const SECRET_PREFIX = "whsec_";

/** 32 random bytes (the specification asks for 24 to 64), base64 after the prefix. */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString("base64")}`;
}

/** The key bytes of a `whsec_` secret: base64-decoded without its prefix. */
function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64");
}

/** `v1,` and base64 of HMAC-SHA256 over `<id>.<unix seconds>.<body>`. */
export function signWebhook(secret: string, id: string, timestamp: Date, body: string): string {
  const signed = `${id}.${Math.floor(timestamp.getTime() / 1000)}.${body}`;
  return `v1,${createHmac("sha256", keyOf(secret)).update(signed).digest("base64")}`;
}

/** The three Standard Webhooks headers, one signature per secret (space-separated) during a rotation. */
export function standardWebhookHeaders(message: {
  readonly id: string;
  readonly timestamp: Date;
  readonly body: string;
  readonly secrets: readonly string[];
}): { "webhook-id": string; "webhook-timestamp": string; "webhook-signature": string } {
  return {
    "webhook-id": message.id,
    "webhook-timestamp": String(Math.floor(message.timestamp.getTime() / 1000)),
    "webhook-signature": message.secrets
      .map((secret) => signWebhook(secret, message.id, message.timestamp, message.body))
      .join(" "),
  };
}
