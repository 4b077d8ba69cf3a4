/** Where a delivery stands: sent and acknowledged, still being tried, or given up on after its last attempt. */
export const WEBHOOK_DELIVERY_STATES = ["pending", "succeeded", "dead"] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

/** How long a rotated-out secret keeps signing beside its successor, so receivers can switch over. */
export const SECRET_OVERLAP_MS = 24 * 3_600_000;

/** An endpoint's signing secrets as stored: the current one, and the one it replaced while that still signs. */
export interface SigningSecrets {
  readonly current: string;
  readonly previous: string | null;
  readonly previous_expires_at: Date | null;
}

/** The secrets a message sent at `now` is signed with: the current one first, then the previous one until it expires. */
export function activeSecrets(secrets: SigningSecrets, now: Date): string[] {
  const { previous, previous_expires_at: expires } = secrets;
  return previous !== null && expires !== null && expires > now ? [secrets.current, previous] : [secrets.current];
}

/** A receiver answered with success: any 2xx. */
export const isAcknowledged = (status: number): boolean => status >= 200 && status <= 299;

/** The `webhook-id` of every attempt of one delivery, so a receiver can drop a message it already processed. */
export const webhookIdOf = (deliveryId: string): string => `msg_${deliveryId}`;
