import type { Order, OrderItem } from "../../domain/orders/order.ts";
import type { OrderEvent } from "../../domain/orders/order-status.ts";
import type { PaymentPointer } from "../../domain/payments/gateway-event.ts";
import type { Dispute, DisputeStatus, Payment, PaymentReferences } from "../../domain/payments/payment.ts";

export type NewPayment = Omit<Payment, "id" | "created_at" | "refunded_amount" | "charged_back_amount" | "discount"> & {
  /** What a discount code took off, as the gateway reported it; 0 when left out. */
  readonly discount?: number;
};

/** Money going back on a payment, as the one who reports it knows it. */
export interface RefundReport {
  /** The gateway's id of this refund; null when the report names none (a running total never does). */
  readonly refund_id: string | null;
  /** This refund's amount, or (when `cumulative`) everything refunded on the payment so far. */
  readonly amount: number;
  readonly cumulative: boolean;
  /**
   * What the ledger held as refunded before this refund was made, when the reporter read it then
   * (an admin, before asking the gateway): this refund cannot be part of it.
   */
  readonly refunded_before?: number;
  /** The admin's reservation this refund settles (`reserveRefund`): it becomes the refund, not a second one. */
  readonly reservation_id?: string;
}

/**
 * A refund reserved under its payment's lock before the gateway is asked: it counts against what is
 * left to refund until it is settled (`applyRefund` with its id) or released. Its id names the
 * refund at the gateway.
 */
export interface RefundReservation {
  readonly id: string;
  /** The payment as read under its lock when the reservation was made. */
  readonly payment: Payment;
  readonly amount: number;
  readonly refunded_before: number;
  /** An earlier attempt's outcome at the gateway was never learned: it may have refunded. */
  readonly outcome_unknown: boolean;
  /** The hash of the request body it was reserved for (null without an Idempotency-Key). */
  readonly request_hash: string | null;
}

/** The admin's Idempotency-Key (with the admin's id) and the hash of the request body sent with it. */
export interface RefundRequestKey {
  readonly key: string;
  readonly hash: string;
}

/** Every movement of money in and back out, per payment; bound to the caller's transaction. */
export interface PaymentLedger {
  /** One payment per `(gateway, payment_id)`: undefined when it was recorded before. */
  record(payment: NewPayment): Promise<Payment | undefined>;
  /** The payment any of the pointer's ids names (locked for the transaction). */
  find(gateway: string, pointer: PaymentPointer): Promise<Payment | undefined>;
  forOrder(orderId: string): Promise<Payment[]>;
  /** Fills in ids learned later (the charge behind a payment intent, say). */
  link(paymentId: string, references: PaymentReferences): Promise<void>;
  /**
   * Records a refund. The refunded amount only rises, to the highest total the ledger can prove
   * without counting any refund twice: a running total the gateway reported (`cumulative`), the sum
   * of the refunds known by id (each recorded once), or `refunded_before` plus this refund. A
   * refund id already recorded changes nothing. Never beyond what lost disputes left. Returns the
   * payment afterwards.
   */
  applyRefund(paymentId: string, refund: RefundReport): Promise<Payment>;
  /** What open reservations hold on a payment (read it after locking the payment with `find`). */
  reservedOn(paymentId: string): Promise<number>;
  /**
   * Reserves `amount` of a locked payment, claimed by its maker for `claimSeconds`. `request`
   * lets a retry of the same request take the reservation up again (`reservationFor`).
   */
  reserveRefund(
    payment: Payment,
    amount: number,
    request: RefundRequestKey | null,
    claimSeconds: number,
  ): Promise<RefundReservation>;
  /**
   * The latest refund made under `requestKey` for one of the order's payments: `open` while still
   * reserved, not once settled. A released reservation is gone: nothing was refunded under it.
   */
  reservationFor(
    orderId: string,
    requestKey: string,
  ): Promise<{ reservation: RefundReservation; open: boolean } | undefined>;
  /**
   * Claims an open reservation for one round of asking the gateway, for `claimSeconds`: `claimed`
   * is false while someone else holds it; undefined when it is settled or released.
   */
  claimReservation(
    reservationId: string,
    claimSeconds: number,
  ): Promise<{ reservation: RefundReservation; claimed: boolean } | undefined>;
  /** Lets a reservation be claimed again at once (its asker gave up without an answer). */
  unclaimReservation(reservationId: string): Promise<void>;
  /**
   * An attempt's outcome is unknown (the gateway may have refunded): marks the reservation so and
   * holds it for `holdSeconds`, until what the attempt did can be seen at the gateway.
   */
  holdUnknownOutcome(reservationId: string, holdSeconds: number): Promise<void>;
  /** The gateway refunded nothing: the reserved amount is free again. */
  releaseReservation(reservationId: string): Promise<void>;
  /**
   * Opens or settles the dispute `gateway_dispute_id` on a payment. `changed` is false when the
   * dispute already had this status (a repeated event). A lost dispute counts its amount as
   * charged back on the payment.
   */
  settleDispute(
    payment: Payment,
    dispute: { gateway_dispute_id: string; amount: number; currency: string; status: DisputeStatus },
  ): Promise<{ dispute: Dispute; changed: boolean; payment: Payment }>;
}

/** Orders as the payment flow changes them: status through the state machine, and attention. */
export interface OrderStatusWriter {
  /** The order, locked for the transaction, and its items. */
  find(orderId: string): Promise<{ order: Order; items: OrderItem[] } | undefined>;
  /** Moves the order by `event` (domain/orders/order-status.ts); throws `OrderTransitionRefused`. */
  move(order: Order, event: OrderEvent): Promise<Order>;
  /** Sets `needs_attention` with the reason; a later reason is added to an earlier one. The order after, if it exists. */
  flagForAttention(orderId: string, reason: string): Promise<Order | undefined>;
  clearAttention(orderId: string): Promise<void>;
  /** Counts the order's discount code as redeemed by its customer, once however often it is told. */
  redeemDiscount(order: Order): Promise<void>;
  /**
   * Moves up to `limit` orders placed before `placedBefore` and still unpaid to `expired`, oldest
   * first, skipping any another transaction holds (a payment being recorded); returns them moved.
   * An order holding one of a limited discount code's redemptions expires once placed before
   * `holdBefore`, so that abandoned checkouts give the redemption back sooner.
   */
  expireUnpaid(placedBefore: Date, limit: number, holdBefore?: Date): Promise<Order[]>;
}
