import { addInterval, type Interval } from "../calendar.ts";

/** The Paddle Billing objects the gateway_a sandbox keeps, shaped as the API returns them. */
export type Json = Record<string, unknown>;
export type { Interval };

export interface Money {
  /** Minor units as a string of digits. */
  readonly amount: string;
  readonly currency_code: string;
}

export interface Cycle {
  readonly interval: Interval;
  readonly frequency: number;
}

export interface Period {
  readonly starts_at: string;
  readonly ends_at: string;
}

export interface PaddleProduct {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly type: "standard" | "custom";
  readonly tax_category: string;
  readonly image_url: string | null;
  readonly custom_data: Json | null;
  readonly status: "active" | "archived";
  readonly created_at: string;
  readonly updated_at: string;
}

export interface PaddlePrice {
  readonly id: string;
  readonly product_id: string;
  readonly description: string;
  readonly name: string | null;
  readonly type: "standard" | "custom";
  readonly billing_cycle: Cycle | null;
  readonly trial_period: Cycle | null;
  readonly tax_mode: "account_setting";
  readonly unit_price: Money;
  readonly quantity: { readonly minimum: number; readonly maximum: number };
  readonly status: "active" | "archived";
  readonly custom_data: Json | null;
  readonly created_at: string;
  readonly updated_at: string;
}

export interface Totals {
  readonly subtotal: string;
  readonly discount: string;
  readonly tax: string;
  readonly total: string;
}

export interface PaddleLineItem {
  readonly id: string;
  readonly price_id: string;
  readonly quantity: number;
  readonly totals: Totals;
  readonly unit_totals: Totals;
  readonly product: PaddleProduct;
}

export interface PaddleTransaction {
  readonly id: string;
  readonly status: "draft" | "ready" | "billed" | "paid" | "completed";
  readonly origin: "api" | "web" | "subscription_recurring";
  readonly customer_id: string | null;
  readonly custom_data: Json | null;
  readonly currency_code: string;
  readonly subscription_id: string | null;
  readonly billing_period: Period | null;
  readonly items: readonly { readonly price_id: string; readonly price: PaddlePrice; readonly quantity: number }[];
  readonly details: {
    readonly totals: Totals & {
      readonly grand_total: string;
      readonly balance: string;
      readonly currency_code: string;
    };
    readonly line_items: readonly PaddleLineItem[];
  };
  readonly checkout: { readonly url: string | null };
  readonly created_at: string;
  readonly updated_at: string;
  readonly billed_at: string | null;
}

export interface PaddleSubscription {
  readonly id: string;
  readonly status: "active" | "trialing" | "past_due" | "paused" | "canceled";
  readonly customer_id: string | null;
  readonly currency_code: string;
  readonly created_at: string;
  readonly updated_at: string;
  readonly started_at: string;
  readonly first_billed_at: string | null;
  readonly next_billed_at: string | null;
  readonly canceled_at: string | null;
  readonly collection_mode: "automatic";
  readonly billing_cycle: Cycle;
  readonly current_billing_period: Period | null;
  readonly scheduled_change: { readonly action: "cancel"; readonly effective_at: string } | null;
  readonly items: readonly {
    readonly status: "active" | "trialing";
    readonly quantity: number;
    readonly recurring: true;
    readonly next_billed_at: string | null;
    readonly trial_dates: Period | null;
    readonly price: PaddlePrice;
    readonly product: PaddleProduct;
  }[];
  readonly custom_data: Json | null;
}

export interface PaddleAdjustment {
  readonly id: string;
  readonly action: "refund";
  readonly type: "full" | "partial";
  readonly transaction_id: string;
  readonly subscription_id: string | null;
  readonly customer_id: string | null;
  readonly reason: string;
  readonly currency_code: string;
  readonly status: "pending_approval" | "approved";
  readonly items: readonly {
    readonly id: string;
    readonly item_id: string;
    readonly type: "full" | "partial";
    readonly amount: string;
  }[];
  readonly totals: {
    readonly subtotal: string;
    readonly tax: string;
    readonly total: string;
    readonly fee: string;
    readonly earnings: string;
    readonly currency_code: string;
  };
  readonly created_at: string;
  readonly updated_at: string;
}

/** `at` moved on by one billing cycle or trial period. */
export function addCycle(at: Date, cycle: Cycle): Date {
  return addInterval(at, cycle.interval, cycle.frequency);
}
