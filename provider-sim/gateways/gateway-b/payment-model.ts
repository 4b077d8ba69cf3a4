import type { DISPUTE_DEFAULTS, refundDefaults } from "./payment-defaults.ts";

/**
 * The money objects of the gateway_b sandbox: payment intents with their latest charge, refunds and
 * disputes. The Charge and PaymentIntent objects are rendered from a `Payment` on demand.
 */
export interface Payment {
  /** `pi_...` */
  readonly id: string;
  /** `ch_...` of the latest attempt; a retried invoice payment gets a new charge on the same intent. */
  readonly charge: string;
  readonly amount: number;
  readonly currency: string;
  readonly status: "succeeded" | "requires_payment_method";
  readonly refunded: number;
  readonly disputed: boolean;
  readonly metadata: Record<string, string>;
  readonly customer: string | null;
  /** The invoice this intent pays; Stripe no longer writes it on the intent or charge, the invoice payment does. */
  readonly invoice: string | null;
  readonly created: number;
  /** The latest charge's receipt page, served by the sandbox. */
  readonly receipt_url: string;
}

export interface StripeRefund extends ReturnType<typeof refundDefaults> {
  readonly id: string;
  readonly object: "refund";
  readonly amount: number;
  readonly balance_transaction: null;
  readonly charge: string;
  readonly created: number;
  readonly currency: string;
  readonly metadata: Record<string, string>;
  readonly payment_intent: string;
  readonly reason: string | null;
  readonly receipt_number: null;
  readonly status: "succeeded";
}

export const DISPUTE_REASONS = [
  "bank_cannot_process",
  "credit_not_processed",
  "customer_initiated",
  "debit_not_authorized",
  "duplicate",
  "fraudulent",
  "general",
  "incorrect_account_details",
  "insufficient_funds",
  "product_not_received",
  "product_unacceptable",
  "subscription_canceled",
  "unrecognized",
] as const;

export interface StripeDispute extends Readonly<typeof DISPUTE_DEFAULTS> {
  readonly id: string;
  readonly object: "dispute";
  readonly amount: number;
  readonly balance_transactions: readonly never[];
  readonly charge: string;
  readonly created: number;
  readonly currency: string;
  readonly evidence_details: {
    readonly due_by: number;
    readonly enhanced_eligibility: Record<string, never>;
    readonly has_evidence: false;
    readonly past_due: false;
    readonly submission_count: 0;
    readonly submission_method: "not_submitted";
  };
  readonly is_charge_refundable: boolean;
  readonly livemode: false;
  readonly metadata: Record<string, string>;
  readonly payment_intent: string;
  readonly reason: (typeof DISPUTE_REASONS)[number];
  readonly status: "needs_response" | "won" | "lost";
}
