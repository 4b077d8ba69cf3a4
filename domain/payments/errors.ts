import { DomainError, fixedError } from "../shared/domain-error.ts";

export class UnreadableGatewayEvent extends DomainError {
  readonly code = "UNREADABLE_GATEWAY_EVENT";
  readonly category = "invalid";
  constructor(reason: string) {
    super(`The gateway event cannot be stored or read back: ${reason}.`);
  }
}

/** A live key about to go to a host that is not the gateway's own, in production: nothing is sent. */
export class GatewayHostNotAllowed extends DomainError {
  readonly code = "GATEWAY_HOST_NOT_ALLOWED";
  readonly category = "invalid";
  readonly transient = false;

  constructor(path: string, reason: string) {
    super(`The gateway address is not allowed: ${reason}.`, [
      { path, code: "GATEWAY_HOST_NOT_ALLOWED", message: reason },
    ]);
  }
}

export class InvalidWebhookSignature extends DomainError {
  readonly code = "INVALID_WEBHOOK_SIGNATURE";
  readonly category = "malformed";
  constructor(reason: string) {
    super(`The webhook signature is not valid: ${reason}.`);
  }
}

export class InvalidWebhookPayload extends DomainError {
  readonly code = "INVALID_WEBHOOK_PAYLOAD";
  readonly category = "malformed";
  constructor(reason: string) {
    super(`The webhook body is not a valid event: ${reason}.`);
  }
}

export class NothingToApprove extends fixedError(
  "NOTHING_TO_APPROVE",
  "conflict",
  "The order neither needs attention nor waits for approval.",
) {}

export class NothingToRefund extends fixedError(
  "NOTHING_TO_REFUND",
  "conflict",
  "The order has no payment left to refund.",
) {}

export class RefundExceedsPayment extends DomainError {
  readonly code = "REFUND_EXCEEDS_PAYMENT";
  readonly category = "invalid";
  constructor(refundable: number) {
    super(`At most ${refundable} (minor units) can still be refunded.`, [
      { path: "/amount", code: "REFUND_EXCEEDS_PAYMENT", message: `must be between 1 and ${refundable}` },
    ]);
  }
}

export class PaymentNotOfOrder extends fixedError(
  "PAYMENT_NOT_FOUND",
  "invalid",
  "The order has no payment with this id.",
  [{ path: "/payment_id", code: "PAYMENT_NOT_FOUND", message: "is not a payment of this order" }],
) {}

export class RefundFailed extends fixedError(
  "REFUND_FAILED",
  "upstream_failed",
  "The payment gateway refused the refund; nothing was refunded.",
) {}

export class RefundInProgress extends fixedError(
  "REFUND_IN_PROGRESS",
  "conflict",
  "This refund is being asked of the payment gateway right now; retry shortly.",
) {}

export class RefundOutcomeUnknown extends fixedError(
  "REFUND_OUTCOME_UNKNOWN",
  "upstream_failed",
  "The payment gateway refused this attempt, but an earlier one may have refunded: the amount stays reserved until the gateway shows what it did.",
) {}
