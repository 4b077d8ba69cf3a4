import { OrderTransitionRefused } from "./errors.ts";

export const ORDER_STATUSES = [
  "pending_payment",
  "checkout_failed",
  "paid",
  "flagged",
  "partially_refunded",
  "refunded",
  "disputed",
  "charged_back",
  "cancelled",
  "expired",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Every order starts here, waiting for its checkout to be paid. */
export const NEW_ORDER_STATUS: OrderStatus = "pending_payment";

/** What can happen to an order; each moves it along one row of the table below, or is refused. */
export type OrderEvent =
  /** The gateway could not open a checkout. */
  | "checkout_failed"
  /** A payment that matches the order (gateway, environment, amount, currency). */
  | "paid"
  /** A first payment that does not match: money received, nothing delivered. */
  | "flagged"
  /** An admin accepted a flagged order: it is delivered. */
  | "approved"
  | "partially_refunded"
  | "refunded"
  | "dispute_opened"
  /** A won dispute gives the money back: the order is paid again (or partly refunded, as before). */
  | "dispute_won_paid"
  | "dispute_won_partially_refunded"
  | "dispute_lost"
  | "cancelled"
  /** Nobody paid within the checkout's lifetime: the order is closed, and its checkout too. */
  | "expired";

/**
 * Every allowed move: from which statuses an event may happen and where it leads. An order is
 * delivered only from `paid` (reached by a matching payment or an admin's approval).
 */
const MOVES: Readonly<Record<OrderEvent, { readonly from: readonly OrderStatus[]; readonly to: OrderStatus }>> = {
  checkout_failed: { from: ["pending_payment"], to: "checkout_failed" },
  paid: { from: ["pending_payment", "checkout_failed"], to: "paid" },
  // An expired order that is paid anyway (the customer was on the gateway's page as it closed) holds money.
  flagged: { from: ["pending_payment", "checkout_failed", "expired"], to: "flagged" },
  approved: { from: ["flagged"], to: "paid" },
  partially_refunded: { from: ["paid", "partially_refunded"], to: "partially_refunded" },
  refunded: { from: ["paid", "partially_refunded", "flagged", "disputed"], to: "refunded" },
  dispute_opened: { from: ["paid", "partially_refunded", "flagged", "refunded"], to: "disputed" },
  dispute_won_paid: { from: ["disputed"], to: "paid" },
  dispute_won_partially_refunded: { from: ["disputed"], to: "partially_refunded" },
  dispute_lost: { from: ["disputed"], to: "charged_back" },
  cancelled: { from: ["pending_payment", "checkout_failed"], to: "cancelled" },
  expired: { from: ["pending_payment", "checkout_failed"], to: "expired" },
};

/** Where `event` takes an order that is `from`; throws `OrderTransitionRefused` when it may not happen. */
export function nextOrderStatus(from: OrderStatus, event: OrderEvent): OrderStatus {
  const move = MOVES[event];
  if (!move.from.includes(from)) throw new OrderTransitionRefused(from, event);
  return move.to;
}

export function canTake(from: OrderStatus, event: OrderEvent): boolean {
  return MOVES[event].from.includes(from);
}

/**
 * The statuses `event` may happen from: the guard of an update that moves an order in one
 * statement (`where status in ...`), so the database refuses exactly what the table refuses.
 */
export function sourcesFor(event: OrderEvent): readonly OrderStatus[] {
  return MOVES[event].from;
}

/** Where `event` leads an order, from any status it may happen from. */
export function targetOf(event: OrderEvent): OrderStatus {
  return MOVES[event].to;
}

/** The table itself, for the docs and for tests that walk every pair. */
export const ORDER_MOVES = MOVES;
