import type { Json, PaddlePrice, PaddleProduct, Period } from "./model.ts";

/** The money objects of the gateway_a sandbox: transactions, their payment attempts, and adjustments. */
export interface Totals {
  readonly subtotal: string;
  readonly discount: string;
  readonly tax: string;
  readonly total: string;
}

export interface TransactionTotals extends Totals {
  readonly credit: string;
  readonly credit_to_balance: string;
  readonly balance: string;
  readonly grand_total: string;
  readonly grand_total_tax: string;
  /** Null until the transaction is completed; the sandbox takes no fee. */
  readonly fee: string | null;
  readonly earnings: string | null;
  readonly currency_code: string;
}

export interface PaymentAttempt {
  readonly payment_attempt_id: string;
  readonly stored_payment_method_id: string;
  readonly payment_method_id: string;
  readonly amount: string;
  readonly status: "captured" | "error";
  readonly error_code: "declined" | null;
  readonly method_details: {
    readonly type: "card";
    readonly card: {
      readonly type: "visa";
      readonly last4: string;
      readonly expiry_month: number;
      readonly expiry_year: number;
      readonly cardholder_name: string;
    };
    readonly paypal: null;
    readonly south_korea_local_card: null;
    readonly underlying_details: null;
  };
  readonly created_at: string;
  readonly captured_at: string | null;
}

/** A line's share of a billing period: `rate` of the whole, for `billing_period` ("0.49861"). */
export interface Proration {
  readonly rate: string;
  readonly billing_period: Period;
}

export interface PaddleLineItem {
  readonly id: string;
  readonly price_id: string;
  readonly quantity: number;
  /** The rate applied, as a decimal string ("0.2"). */
  readonly tax_rate: string;
  readonly proration: Proration | null;
  readonly totals: Totals;
  readonly unit_totals: Totals;
  readonly product: PaddleProduct;
}

export interface PaddleTransaction {
  readonly id: string;
  readonly status: "draft" | "ready" | "billed" | "paid" | "completed" | "canceled" | "past_due";
  readonly origin: "api" | "web" | "subscription_recurring" | "subscription_update";
  readonly customer_id: string | null;
  readonly address_id: string | null;
  readonly business_id: null;
  readonly custom_data: Json | null;
  readonly currency_code: string;
  readonly collection_mode: "automatic";
  readonly subscription_id: string | null;
  readonly invoice_id: string | null;
  readonly invoice_number: string | null;
  readonly discount_id: string | null;
  readonly billing_details: null;
  readonly billing_period: Period | null;
  readonly items: readonly {
    readonly price_id: string;
    readonly price: PaddlePrice;
    readonly quantity: number;
    readonly proration: Proration | null;
  }[];
  readonly details: {
    readonly tax_rates_used: readonly { readonly tax_rate: string; readonly totals: Totals }[];
    readonly totals: TransactionTotals;
    readonly line_items: readonly PaddleLineItem[];
  };
  /** Newest first, as Paddle lists them. */
  readonly payments: readonly PaymentAttempt[];
  readonly checkout: { readonly url: string | null };
  readonly created_at: string;
  readonly updated_at: string;
  readonly billed_at: string | null;
}

/** Paddle's documented adjustment actions; the sandbox creates `refund`, `chargeback` and `chargeback_reverse`. */
export type AdjustmentAction = "refund" | "credit" | "chargeback" | "chargeback_reverse" | "chargeback_warning";

export interface PaddleAdjustment {
  readonly id: string;
  readonly action: AdjustmentAction;
  readonly type: "full" | "partial";
  readonly transaction_id: string;
  readonly subscription_id: string | null;
  readonly customer_id: string;
  readonly reason: string;
  readonly credit_applied_to_balance: false;
  readonly currency_code: string;
  readonly status: "pending_approval" | "approved";
  readonly items: readonly {
    readonly id: string;
    readonly item_id: string;
    readonly type: "full" | "partial";
    readonly amount: string;
    readonly proration: null;
    readonly totals: { readonly subtotal: string; readonly tax: string; readonly total: string };
  }[];
  readonly totals: {
    readonly subtotal: string;
    readonly tax: string;
    readonly total: string;
    readonly fee: string;
    readonly earnings: string;
    readonly retained_fee: string;
    readonly currency_code: string;
  };
  readonly payout_totals: null;
  readonly created_at: string;
  readonly updated_at: string;
}
