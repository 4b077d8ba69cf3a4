import type { PaymentGatewayName } from "../catalog/product.ts";
import { DomainError, fixedError, ReasonedRefusal } from "../shared/domain-error.ts";

export class NoCommonGateway extends fixedError(
  "NO_COMMON_GATEWAY",
  "invalid",
  "No payment gateway accepts every item of this checkout; buy them separately.",
  [{ path: "/items", code: "NO_COMMON_GATEWAY", message: "the items share no enabled payment gateway" }],
) {}

export class OrderExpiredAtCheckout extends fixedError(
  "ORDER_EXPIRED",
  "conflict",
  "The order expired before its checkout opened; nothing was charged. Place the order again.",
) {}

export class CustomerNotFound extends fixedError(
  "CUSTOMER_NOT_FOUND",
  "not_found",
  "The customer account does not exist.",
) {}

/** An admin disabled the address's account or guest record; which one is not said. */
export class GuestCheckoutRefused extends fixedError(
  "GUEST_CHECKOUT_REFUSED",
  "forbidden",
  "This email address cannot buy here. Contact the shop.",
  [{ path: "/email", code: "GUEST_CHECKOUT_REFUSED", message: "cannot buy here" }],
) {}

/** Why a license cannot be upgraded now. */
export type LicenseUpgradeRefusal = "revoked" | "suspended" | "subscription" | "already_upgraded" | "pending";

const UPGRADE_REFUSALS: Readonly<Record<LicenseUpgradeRefusal, string>> = {
  revoked: "This license has been revoked.",
  suspended: "This license is suspended until its payment is settled.",
  subscription: "A license that comes with a subscription changes with the subscription's plan.",
  already_upgraded: "This license is already of that type.",
  pending: "An upgrade of this license is waiting for its payment: finish or cancel that checkout first.",
};

export class LicenseUpgradeRefused extends ReasonedRefusal<LicenseUpgradeRefusal> {
  constructor(reason: LicenseUpgradeRefusal) {
    super("LICENSE_UPGRADE", UPGRADE_REFUSALS, reason);
  }
}

/** A license id that names none of the customer's licenses. */
export class OwnLicenseNotFound extends fixedError("LICENSE_NOT_FOUND", "not_found", "The license does not exist.") {}

/**
 * The checkout's gateway cannot take it now (its breaker is open, or it failed as an outage does),
 * and either the customer named it or no other gateway of the checkout can. `alternatives` are the
 * gateways every item enables whose breakers are not open; `retryAfterSeconds` when the breaker
 * says how long it stays open.
 */
export class GatewayUnavailable extends DomainError {
  readonly code = "GATEWAY_UNAVAILABLE";
  readonly category = "unavailable";
  override readonly extensions: Readonly<Record<string, unknown>>;

  constructor(
    readonly gateway: PaymentGatewayName,
    readonly alternatives: readonly PaymentGatewayName[],
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(
      alternatives.length > 0
        ? `The payment gateway ${gateway} is unavailable right now; check out with one of the alternatives, or retry later.`
        : `The payment gateway ${gateway} is unavailable right now, and no other gateway takes this checkout; retry later.`,
    );
    this.extensions = { gateway, alternatives };
  }
}
