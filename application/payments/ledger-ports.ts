import type { Order, OrderItem } from "../../domain/orders/order.ts";
import type { OrderEvent } from "../../domain/orders/order-status.ts";
import type { PaymentPointer } from "../../domain/payments/gateway-event.ts";
import type { Dispute, DisputeStatus, Payment, PaymentReferences } from "../../domain/payments/payment.ts";

export type NewPayment = Omit<Payment, "id" | "created_at" | "refunded_amount" | "charged_back_amount">;

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
export interface OrderLedger {
  /** The order, locked for the transaction, and its items. */
  find(orderId: string): Promise<{ order: Order; items: OrderItem[] } | undefined>;
  /** Moves the order by `event` (domain/orders/order-status.ts); throws `OrderTransitionRefused`. */
  move(order: Order, event: OrderEvent): Promise<Order>;
  /** Sets `needs_attention` with the reason; a later reason is added to an earlier one. The order after, if it exists. */
  flagForAttention(orderId: string, reason: string): Promise<Order | undefined>;
  clearAttention(orderId: string): Promise<void>;
  /**
   * Moves up to `limit` orders placed before `placedBefore` and still unpaid to `expired`, oldest
   * first, skipping any another transaction holds (a payment being recorded); returns them moved.
   */
  expireUnpaid(placedBefore: Date, limit: number): Promise<Order[]>;
}
