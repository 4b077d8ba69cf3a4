import { fixedError } from "../shared/domain-error.ts";

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
