import {
  activeSecrets,
  isAcknowledged,
  type RetrySchedule,
  retryWaitMs,
  webhookIdOf,
} from "../../domain/outgoing-webhooks/webhook-delivery.ts";
import type { Clock, Log } from "../shared/clock-and-log.ts";
import type { OutgoingMessage, WebhookAnswer, WebhookDeliveryRepository, WebhookSender } from "./ports.ts";

/** A receiver's `Retry-After` can put the next attempt off by up to this: a receiver cannot park a delivery for days. */
export const MAX_RETRY_AFTER_MS = 3_600_000;

type Verdict =
  | { readonly ok: true; readonly status: number }
  | {
      readonly ok: false;
      readonly status: number | null;
      readonly reason: string;
      readonly permanent: boolean;
      readonly retryAfterMs: number | undefined;
    };

/** Standard Webhooks: any 2xx succeeds; anything else, a redirect included, fails and is retried. */
function judge(answer: WebhookAnswer): Verdict {
  if (answer.kind === "failed") {
    return { ok: false, status: null, reason: answer.reason, permanent: answer.permanent, retryAfterMs: undefined };
  }
  const { status } = answer;
  if (isAcknowledged(status)) return { ok: true, status };
  const said = answer.excerpt ? `: ${answer.excerpt}` : "";
  const reason =
    status >= 300 && status < 400 ? `HTTP ${status}, a redirect, which is not followed` : `HTTP ${status}${said}`;
  const throttled = (status === 429 || status === 503) && answer.retry_after_ms !== null;
  return {
    ok: false,
    status,
    reason,
    permanent: false,
    retryAfterMs: throttled ? Math.min(answer.retry_after_ms ?? 0, MAX_RETRY_AFTER_MS) : undefined,
  };
}

/** The body every attempt sends: `{type, timestamp, data}`, the timestamp being the event's. */
export function webhookBody(message: OutgoingMessage): string {
  const { type, created_at, data } = message.event;
  return JSON.stringify({ type, timestamp: created_at.toISOString(), data });
}

/** How one attempt ended: nothing to send, a verdict recorded, or a failure to try again after `waitMs`. */
export type AttemptOutcome =
  | { readonly kind: "skipped" | "succeeded" | "dead" }
  | { readonly kind: "retry"; readonly reason: string; readonly waitMs: number };

export interface AttemptDeps {
  readonly deliveries: Pick<WebhookDeliveryRepository, "outgoing" | "recordAttempt">;
  readonly sender: WebhookSender;
  readonly retrySchedule: RetrySchedule;
  readonly clock: Clock;
  readonly log: Log;
}

/**
 * Attempt `attempt` of one run of a delivery: one signed POST under the delivery's `webhook-id`,
 * recorded on the delivery. A delivery that is gone (its endpoint was deleted), no longer pending,
 * or sent again since the run began (a redelivery or a replay took it over) is not sent. On the last
 * attempt, or when the address may never be called, the delivery is dead. `beforeSend` is awaited
 * just before the POST (a replay paces its sends there).
 */
export async function attemptDelivery(
  deps: AttemptDeps,
  run: { readonly delivery_id: string; readonly redelivery: number },
  attempt: { readonly number: number; readonly last: boolean; readonly beforeSend?: () => Promise<void> },
): Promise<AttemptOutcome> {
  const message = await deps.deliveries.outgoing(run.delivery_id);
  if (message?.delivery.state !== "pending" || message.delivery.redeliveries !== run.redelivery) {
    return { kind: "skipped" };
  }
  const { delivery } = message;
  await attempt.beforeSend?.();
  const at = deps.clock();
  const answer = await deps.sender.send({
    url: message.url,
    id: webhookIdOf(delivery.id),
    timestamp: at,
    body: webhookBody(message),
    secrets: activeSecrets(message.secrets, at),
  });
  const verdict = judge(answer);
  const fields = {
    delivery_id: delivery.id,
    endpoint_id: delivery.endpoint_id,
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    attempt: attempt.number,
  };
  if (verdict.ok) {
    await deps.deliveries.recordAttempt(delivery, { state: "succeeded", status_code: verdict.status, error: null, at });
    deps.log.info({ ...fields, status: verdict.status }, "webhook delivered");
    return { kind: "succeeded" };
  }
  const dead = attempt.last || verdict.permanent;
  await deps.deliveries.recordAttempt(delivery, {
    state: dead ? "dead" : "pending",
    status_code: verdict.status,
    error: verdict.reason,
    at,
  });
  if (dead) {
    deps.log.warn({ ...fields, status: verdict.status, error: verdict.reason }, "webhook delivery gave up");
    return { kind: "dead" };
  }
  const waitMs = Math.max(retryWaitMs(deps.retrySchedule, attempt.number), verdict.retryAfterMs ?? 0);
  deps.log.warn(
    { ...fields, status: verdict.status, error: verdict.reason, retry_in_ms: waitMs },
    "webhook delivery failed; retrying",
  );
  return { kind: "retry", reason: verdict.reason, waitMs };
}
