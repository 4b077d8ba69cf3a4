import { DomainError, fixedError } from "../shared/domain-error.ts";
import type { OrderEvent, OrderStatus } from "./order-status.ts";

export class OrderTransitionRefused extends DomainError {
  readonly code = "ORDER_TRANSITION_REFUSED";
  readonly category = "conflict";
  constructor(
    readonly from: OrderStatus,
    readonly event: OrderEvent,
  ) {
    super(`An order that is ${from} cannot take "${event.replaceAll("_", " ")}".`);
  }
}

export class OrderNotFound extends fixedError("ORDER_NOT_FOUND", "not_found", "The order does not exist.") {}
