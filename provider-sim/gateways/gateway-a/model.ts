import { addInterval, type Interval } from "../calendar.ts";

/** The Paddle Billing objects the gateway_a sandbox keeps, shaped as the API (version 1) returns them. */
export type Json = Record<string, unknown>;
export type { Interval };

/** `internal`: the unit price includes tax; `external`: tax is added on top; `account_setting`: the account's default. */
export const TAX_MODES = ["account_setting", "external", "internal"] as const;
export type TaxMode = (typeof TAX_MODES)[number];

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
  readonly tax_mode: TaxMode;
  readonly unit_price: Money;
  /** Prices for particular countries; the sandbox bills every country the same, so always empty. */
  readonly unit_price_overrides: readonly never[];
  readonly quantity: { readonly minimum: number; readonly maximum: number };
  readonly status: "active" | "archived";
  readonly custom_data: Json | null;
  readonly created_at: string;
  readonly updated_at: string;
}

export interface PaddleCustomer {
  readonly id: string;
  readonly name: string | null;
  readonly email: string;
  readonly marketing_consent: boolean;
  readonly status: "active" | "archived";
  readonly custom_data: Json | null;
  readonly locale: string;
  readonly created_at: string;
  readonly updated_at: string;
  readonly import_meta: null;
}

export interface ScheduledChange {
  readonly action: "cancel";
  readonly effective_at: string;
  readonly resume_at: null;
}

/** The discount a subscription's renewals get: from `starts_at`, until `ends_at` (null: every renewal). */
export interface SubscriptionDiscount {
  readonly id: string;
  readonly starts_at: string;
  readonly ends_at: string | null;
}

export interface PaddleSubscription {
  readonly id: string;
  readonly status: "active" | "trialing" | "past_due" | "paused" | "canceled";
  readonly customer_id: string;
  readonly address_id: string;
  readonly business_id: null;
  readonly currency_code: string;
  readonly created_at: string;
  readonly updated_at: string;
  readonly started_at: string;
  readonly first_billed_at: string | null;
  readonly next_billed_at: string | null;
  readonly paused_at: null;
  readonly canceled_at: string | null;
  readonly discount: SubscriptionDiscount | null;
  readonly collection_mode: "automatic";
  readonly billing_details: null;
  readonly billing_cycle: Cycle;
  readonly current_billing_period: Period | null;
  readonly scheduled_change: ScheduledChange | null;
  /** The customer portal's links; the sandbox has no portal. */
  readonly management_urls: null;
  readonly items: readonly {
    readonly status: "active" | "trialing" | "inactive";
    readonly quantity: number;
    readonly recurring: true;
    readonly created_at: string;
    readonly updated_at: string;
    readonly previously_billed_at: string | null;
    readonly next_billed_at: string | null;
    readonly trial_dates: Period | null;
    readonly price: PaddlePrice;
    readonly product: PaddleProduct;
  }[];
  readonly custom_data: Json | null;
}

/** `at` moved on by one billing cycle or trial period. */
export function addCycle(at: Date, cycle: Cycle): Date {
  return addInterval(at, cycle.interval, cycle.frequency);
}
