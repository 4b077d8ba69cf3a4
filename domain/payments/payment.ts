import type { PaymentGatewayName } from "../catalog/product.ts";

/** `exclusive`: tax is added on top of the shop's price; `inclusive`: the price holds it. */
export type TaxBehavior = "exclusive" | "inclusive";
export const TAX_BEHAVIORS: readonly TaxBehavior[] = ["exclusive", "inclusive"];

/** The first payment of an order, or one that pays a further period of its subscription. */
/** `proration`: the difference a plan change billed at once (credit for unused time, the new price from now). */
export type PaymentKind = "initial" | "renewal" | "proration";

/** The gateway's other names for one payment, so that an event naming any of them finds it. */
export interface PaymentReferences {
  readonly invoice_id?: string | null;
  readonly charge_id?: string | null;
  readonly payment_intent_id?: string | null;
}

/** One movement of money in: recorded once per `(gateway, payment_id)`. */
export interface Payment extends Required<PaymentReferences> {
  readonly id: string;
  readonly order_id: string;
  readonly gateway: PaymentGatewayName;
  /** The gateway's id that refunds are made against (a payment intent, a transaction). */
  readonly payment_id: string;
  readonly kind: PaymentKind;
  readonly amount: number;
  readonly tax: number;
  /** What the gateway took off for a discount code (0 when none). */
  readonly discount: number;
  readonly currency: string;
  readonly refunded_amount: number;
  /** What lost disputes took back. */
  readonly charged_back_amount: number;
  readonly created_at: Date;
}

export type DisputeStatus = "open" | "won" | "lost";

export interface Dispute {
  readonly id: string;
  readonly payment_id: string;
  readonly gateway: PaymentGatewayName;
  readonly gateway_dispute_id: string;
  readonly amount: number;
  readonly currency: string;
  readonly status: DisputeStatus;
  readonly created_at: Date;
  readonly updated_at: Date;
}

/** What the customer paid, as a gateway reports it: the total, the tax in it and the amount before tax. */
export interface ChargedAmount {
  readonly amount: number;
  readonly tax: number;
  /** The amount before tax, discounts taken off. */
  readonly pre_tax: number;
  /** What a discount code took off (0 when none). */
  readonly discount: number;
  readonly currency: string;
}

/**
 * Whether a payment pays what the shop asked. Tax-exclusive prices are compared before tax (the
 * gateway adds the tax on top); tax-inclusive prices are compared with the total.
 */
export function paysExpected(
  charged: Pick<ChargedAmount, "amount" | "pre_tax" | "currency">,
  expected: { amount: number; currency: string; tax_behavior: TaxBehavior },
): boolean {
  if (charged.currency !== expected.currency) return false;
  const compared = expected.tax_behavior === "exclusive" ? charged.pre_tax : charged.amount;
  return compared === expected.amount;
}

/** What is still the shop's of a payment: neither refunded nor taken back by a lost dispute. */
export const retainedAmount = (payment: Pick<Payment, "amount" | "refunded_amount" | "charged_back_amount">) =>
  payment.amount - payment.refunded_amount - payment.charged_back_amount;

type Held = Pick<Payment, "amount" | "refunded_amount" | "charged_back_amount">;

/**
 * What the money given back makes of an order, decided here and nowhere else: `refunded` when none
 * of what was paid in is still the shop's, `partially_refunded` once anything was refunded, null
 * when nothing was.
 */
export function refundStatus(payments: readonly Held[]): "refunded" | "partially_refunded" | null {
  const paidIn = payments.reduce((sum, payment) => sum + payment.amount, 0);
  const retained = payments.reduce((sum, payment) => sum + retainedAmount(payment), 0);
  if (paidIn > 0 && retained === 0) return "refunded";
  return payments.some((payment) => payment.refunded_amount > 0) ? "partially_refunded" : null;
}
