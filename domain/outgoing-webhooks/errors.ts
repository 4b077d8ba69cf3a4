import { DomainError, fixedError } from "../shared/domain-error.ts";

export class WebhookEndpointNotFound extends fixedError(
  "WEBHOOK_ENDPOINT_NOT_FOUND",
  "not_found",
  "The webhook endpoint does not exist.",
) {}

export class WebhookDeliveryNotFound extends fixedError(
  "WEBHOOK_DELIVERY_NOT_FOUND",
  "not_found",
  "The webhook endpoint has no delivery with this id.",
) {}

export class WebhookDeliveryPending extends fixedError(
  "WEBHOOK_DELIVERY_PENDING",
  "conflict",
  "The delivery is still being tried; it can be sent again once it succeeded or was given up on.",
) {}

/**
 * An attempt that failed and will be tried again, no sooner than `retryAfterMs`: the retry
 * schedule's wait, or the receiver's `Retry-After` when that is longer.
 */
export class WebhookAttemptFailed extends DomainError {
  readonly code = "WEBHOOK_DELIVERY_FAILED";
  readonly category = "upstream_failed";
  readonly transient = true;

  constructor(
    reason: string,
    readonly retryAfterMs: number,
  ) {
    super(`The webhook receiver did not acknowledge the delivery: ${reason}.`);
  }
}

export class WebhookReplayNotFound extends fixedError(
  "WEBHOOK_REPLAY_NOT_FOUND",
  "not_found",
  "The webhook endpoint has no replay with this id.",
) {}

export class WebhookReplayRunning extends fixedError(
  "WEBHOOK_REPLAY_RUNNING",
  "conflict",
  "A replay of this endpoint is still sending; ask again once it has completed.",
) {}
