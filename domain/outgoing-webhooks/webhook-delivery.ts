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

/**
 * The waits between a delivery's attempts: the n-th is how long after failed attempt n the next one
 * starts, and the delivery is given up on when they run out. Never empty.
 */
export type RetrySchedule = readonly [number, ...number[]];

/**
 * Svix's schedule, which the Standard Webhooks specification recommends: after the first attempt,
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, so a receiver down for most of a day loses nothing.
 */
export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];

/** The first attempt, then one per wait. */
export const attemptsOf = (schedule: RetrySchedule): number => schedule.length + 1;

/** The wait after failed attempt `attempt` (1 for the first); past the schedule's end, its last wait. */
export const retryWaitMs = (schedule: RetrySchedule, attempt: number): number =>
  schedule[Math.min(attempt, schedule.length) - 1] ?? schedule[0];

/** The longest wait and the most waits a schedule may have: a week, and 99 (100 attempts). */
export const MAX_RETRY_WAIT_MS = 7 * 86_400_000;
export const MAX_RETRIES = 99;

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * A schedule written as comma-separated waits (`5s,5m,30m,2h,5h,10h,10h`): each a positive whole
 * number and one of ms, s, m, h, d, up to a week, and at most 99 of them. Anything else is undefined.
 */
export function parseRetrySchedule(text: string): RetrySchedule | undefined {
  const items = text.split(",");
  if (items.length > MAX_RETRIES) return undefined;
  const waits: number[] = [];
  for (const item of items) {
    const match = /^\s*([1-9]\d{0,9})(ms|s|m|h|d)\s*$/.exec(item);
    if (!match) return undefined;
    const wait = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
    if (wait > MAX_RETRY_WAIT_MS) return undefined;
    waits.push(wait);
  }
  const [first, ...rest] = waits;
  return first === undefined ? undefined : [first, ...rest];
}
