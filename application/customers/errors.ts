import { DomainError, fixedError, ReasonedRefusal } from "../../domain/shared/domain-error.ts";
import type { SubscriptionRecord } from "../fulfillment/ports.ts";
import type { RemoteSubscription } from "../payments/ports.ts";

export class SubscriptionNotFound extends fixedError(
  "SUBSCRIPTION_NOT_FOUND",
  "not_found",
  "The subscription does not exist.",
) {}

/** Why a subscription cannot be cancelled, resumed or moved to another plan now. */
export type SubscriptionRefusal = "cancelled" | "period_ended" | "unconfirmed" | "past_due" | "trialing" | "cancelling";

const REFUSALS: Readonly<Record<SubscriptionRefusal, string>> = {
  cancelled: "This subscription has already ended.",
  period_ended: "The paid period is over: the cancellation took effect and can no longer be withdrawn.",
  unconfirmed: "The payment gateway has not confirmed this subscription yet; try again in a moment.",
  past_due: "The last renewal is not paid: update your card first, then change plan.",
  trialing: "The plan can be changed once the trial has ended and the first period is paid.",
  cancelling: "This subscription is set to end: resume it first, then change plan.",
};

export class SubscriptionChangeRefused extends ReasonedRefusal<SubscriptionRefusal> {
  constructor(reason: SubscriptionRefusal) {
    super("SUBSCRIPTION", REFUSALS, reason);
  }
}

/**
 * The gateway had already ended the subscription (a full refund ended it there, say) when the
 * customer asked to cancel or resume it: the record has caught up, and the answer says so.
 */
export class SubscriptionEnded extends DomainError {
  readonly code = "SUBSCRIPTION_ENDED";
  readonly category = "conflict";
  override readonly extensions: Readonly<Record<string, unknown>>;

  constructor(record: SubscriptionRecord, remote: RemoteSubscription, cancelledAt: Date) {
    super(`The payment gateway has already ended this subscription (${remote.status}).`);
    this.extensions = {
      subscription: {
        id: record.id,
        status: "cancelled",
        gateway_status: remote.status,
        cancelled_at: cancelledAt.toISOString(),
      },
    };
  }
}

export class DownloadLinkInvalid extends fixedError(
  "DOWNLOAD_LINK_INVALID",
  "forbidden",
  "This download link is not valid; take a fresh one from your dashboard.",
) {}

export class DownloadLinkExpired extends fixedError(
  "DOWNLOAD_LINK_EXPIRED",
  "gone",
  "This download link has expired; take a fresh one from your dashboard.",
) {}

export class DownloadRevoked extends fixedError(
  "DOWNLOAD_REVOKED",
  "gone",
  "The license of this download has been revoked; its links no longer work.",
) {}

export class DownloadSuspended extends fixedError(
  "DOWNLOAD_SUSPENDED",
  "forbidden",
  "The license of this download is suspended until its subscription is paid or its dispute settled.",
) {}

/** A payment path param that names no payment of the order: not found, like another customer's order. */
export class PaymentNotFound extends fixedError(
  "PAYMENT_NOT_FOUND",
  "not_found",
  "The order has no payment with this id.",
) {}

/** The gateway keeps no invoice or receipt for the payment (one of no value, or not completed). */
export class InvoiceNotAvailable extends fixedError(
  "INVOICE_NOT_AVAILABLE",
  "not_found",
  "The payment gateway has no invoice or receipt for this payment.",
) {}

/** An emailed link (a billing portal, an invoice) past its expiry: the account has what it opened. */
export class LinkExpired extends fixedError(
  "LINK_EXPIRED",
  "gone",
  "This link has expired; open your account, or use the link in a newer email.",
) {}

/**
 * The gateway refused the plan change for a reason of the subscriber's (a declined card, a renewal
 * about to be billed): the plan stays as it was, and the gateway's words say why.
 */
export class PlanChangeRefusedByGateway extends DomainError {
  readonly code = "PLAN_CHANGE_REFUSED";
  readonly category = "conflict";

  constructor(detail: string | undefined) {
    super(`The payment gateway refused the change; the plan stays as it was.${detail ? ` It said: ${detail}` : ""}`);
  }
}
