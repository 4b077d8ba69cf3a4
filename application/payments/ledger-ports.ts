import type { Order, OrderItem } from "../../domain/orders/order.ts";
import type { OrderEvent } from "../../domain/orders/order-status.ts";
import type { PaymentPointer } from "../../domain/payments/gateway-event.ts";
import type { Dispute, DisputeStatus, Payment, PaymentReferences } from "../../domain/payments/payment.ts";

export type NewPayment = Omit<Payment, "id" | "created_at" | "refunded_amount" | "charged_back_amount">;

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
   * Records what a refund event says. A running total (`cumulative`) raises the refunded amount to
   * it; a single refund is added once per `refund_id` (an admin refund already recorded it).
   * Returns the payment afterwards.
   */
  applyRefund(
    paymentId: string,
    refund: { refund_id: string | null; amount: number; cumulative: boolean },
  ): Promise<Payment>;
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
}
