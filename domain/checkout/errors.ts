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
