import { newGatewayId } from "../ids.ts";
import { StripeError } from "./errors.ts";
import { chargeDefaults, paymentIntentDefaults } from "./payment-defaults.ts";
import type { Payment } from "./payment-model.ts";

export type PaymentLedger = ReturnType<typeof createPaymentLedger>;

export interface AttemptInput {
  readonly amount: number;
  readonly currency: string;
  readonly metadata: Record<string, string>;
  readonly customer: string | null;
  readonly invoice: string | null;
  readonly created: number;
}

const DECLINE = {
  type: "card_error",
  code: "card_declined",
  decline_code: "generic_decline",
  message: "Your card was declined.",
} as const;

/**
 * Payment intents by id; each keeps its latest charge, as Stripe's `latest_charge` does. A charge's
 * receipt is a page under `documentsUrl`.
 */
export function createPaymentLedger(documentsUrl: string) {
  const payments = new Map<string, Payment>();

  return {
    all: () => [...payments.values()],
    /** A new intent charged once, or `retry` (an intent of an unpaid invoice) charged again. */
    attempt(input: AttemptInput, succeed: boolean, retry?: Payment): Payment {
      const charge = newGatewayId("ch");
      const payment: Payment = {
        ...(retry ?? { id: newGatewayId("pi"), refunded: 0, disputed: false, ...input }),
        charge,
        status: succeed ? "succeeded" : "requires_payment_method",
        receipt_url: `${documentsUrl}/receipts/${charge}`,
      };
      payments.set(payment.id, payment);
      return payment;
    },
    save(payment: Payment): Payment {
      payments.set(payment.id, payment);
      return payment;
    },
    intent(id: string, param = "id"): Payment {
      const found = payments.get(id);
      if (!found) throw StripeError.noSuch("payment_intent", id, param);
      return found;
    },
    charge(id: string, param = "id"): Payment {
      const found = [...payments.values()].find((payment) => payment.charge === id);
      if (!found) throw StripeError.noSuch("charge", id, param);
      return found;
    },
    clear: () => payments.clear(),
  };
}

/** The Charge object; since 2025-03-31.basil it names no invoice. */
export function chargeObject(payment: Payment) {
  const paid = payment.status === "succeeded";
  return {
    id: payment.charge,
    object: "charge" as const,
    ...chargeDefaults(payment),
    amount: payment.amount,
    amount_captured: paid ? payment.amount : 0,
    amount_refunded: payment.refunded,
    balance_transaction: null,
    captured: paid,
    created: payment.created,
    currency: payment.currency,
    customer: payment.customer,
    description: null,
    disputed: payment.disputed,
    failure_code: paid ? null : DECLINE.code,
    failure_message: paid ? null : DECLINE.message,
    livemode: false,
    metadata: payment.metadata,
    paid,
    payment_intent: payment.id,
    receipt_url: paid ? payment.receipt_url : null,
    refunded: paid && payment.refunded >= payment.amount,
    status: paid ? ("succeeded" as const) : ("failed" as const),
  };
}

export function paymentIntentObject(payment: Payment) {
  const paid = payment.status === "succeeded";
  return {
    id: payment.id,
    object: "payment_intent" as const,
    ...paymentIntentDefaults(payment),
    amount: payment.amount,
    amount_received: paid ? payment.amount : 0,
    created: payment.created,
    currency: payment.currency,
    customer: payment.customer,
    last_payment_error: paid ? null : { ...DECLINE, charge: payment.charge },
    latest_charge: payment.charge,
    livemode: false,
    metadata: payment.metadata,
    payment_method_types: ["card"],
    status: payment.status,
  };
}
