import { addInterval, type Interval } from "../calendar.ts";
import type { PRICE_DEFAULTS, PRODUCT_DEFAULTS } from "./catalog-defaults.ts";
import type { COLLECTED_INFORMATION, customerDetails, sessionDefaults } from "./session-defaults.ts";
import type { cancellationDetails, planOf, SubscriptionDefaults } from "./subscription-defaults.ts";

/**
 * The catalog, checkout and subscription objects of the gateway_b sandbox, shaped as Stripe API
 * version `STRIPE_API_VERSION` returns them (the version the installed `stripe` package pins).
 * Times are unix seconds.
 */
export type { Interval };
export const INTERVALS: readonly Interval[] = ["day", "week", "month", "year"];
export const TAX_BEHAVIORS = ["exclusive", "inclusive", "unspecified"] as const;
export type TaxBehavior = (typeof TAX_BEHAVIORS)[number];

export interface Recurring {
  readonly interval: Interval;
  readonly interval_count: number;
  readonly meter: null;
  readonly usage_type: "licensed";
  readonly trial_period_days: null;
}

export interface StripeProduct extends Readonly<typeof PRODUCT_DEFAULTS> {
  readonly id: string;
  readonly object: "product";
  readonly active: boolean;
  readonly name: string;
  readonly description: string | null;
  readonly metadata: Record<string, string>;
  readonly created: number;
  readonly updated: number;
  readonly livemode: false;
}

export interface StripePrice extends Readonly<typeof PRICE_DEFAULTS> {
  readonly id: string;
  readonly object: "price";
  readonly active: boolean;
  readonly billing_scheme: "per_unit";
  readonly currency: string;
  readonly unit_amount: number;
  readonly unit_amount_decimal: string;
  readonly product: string;
  readonly recurring: Recurring | null;
  readonly tax_behavior: TaxBehavior;
  readonly type: "one_time" | "recurring";
  readonly nickname: string | null;
  readonly lookup_key: null;
  readonly metadata: Record<string, string>;
  readonly created: number;
  readonly livemode: false;
}

export interface TotalDetails {
  readonly amount_discount: number;
  readonly amount_shipping: number;
  readonly amount_tax: number;
}

/** A coupon the session applies (`discounts[0][coupon]`); the sandbox has no promotion codes. */
export interface SessionDiscount {
  readonly coupon: string;
  readonly promotion_code: null;
}

export interface CheckoutSession extends ReturnType<typeof sessionDefaults> {
  readonly id: string;
  readonly object: "checkout.session";
  readonly url: string;
  readonly status: "open" | "complete" | "expired";
  readonly payment_status: "unpaid" | "paid" | "no_payment_required";
  readonly amount_subtotal: number;
  readonly amount_total: number;
  readonly total_details: TotalDetails;
  readonly discounts: readonly SessionDiscount[];
  readonly currency: string;
  readonly client_reference_id: string | null;
  readonly customer: string | null;
  readonly customer_email: string | null;
  /** Null until the buyer completes the hosted page. */
  readonly customer_details: ReturnType<typeof customerDetails> | null;
  readonly collected_information: typeof COLLECTED_INFORMATION | null;
  readonly metadata: Record<string, string>;
  readonly mode: "payment" | "subscription";
  readonly payment_method_types: readonly string[];
  readonly success_url: string | null;
  readonly cancel_url: string | null;
  readonly payment_intent: string | null;
  readonly subscription: string | null;
  readonly invoice: string | null;
  readonly created: number;
  readonly expires_at: number;
  readonly livemode: false;
}

export interface SessionLine {
  readonly price: StripePrice;
  readonly product_name: string;
  readonly quantity: number;
}

/** Since API version 2025-03-31.basil the billing period lives on each item, not on the subscription. */
export interface SubscriptionItem {
  readonly id: string;
  readonly object: "subscription_item";
  readonly billing_thresholds: null;
  readonly created: number;
  readonly current_trial: null;
  readonly current_period_start: number;
  readonly current_period_end: number;
  readonly discounts: readonly string[];
  readonly metadata: Record<string, string>;
  readonly plan: ReturnType<typeof planOf>;
  readonly price: StripePrice;
  readonly quantity: number;
  readonly subscription: string;
  readonly tax_rates: readonly never[];
}

export interface StripeSubscription extends SubscriptionDefaults {
  readonly id: string;
  readonly object: "subscription";
  readonly status: "active" | "trialing" | "past_due" | "canceled";
  readonly billing_cycle_anchor: number;
  readonly cancel_at: number | null;
  readonly cancel_at_period_end: boolean;
  readonly canceled_at: number | null;
  readonly cancellation_details: ReturnType<typeof cancellationDetails>;
  readonly collection_method: "charge_automatically";
  readonly currency: string;
  readonly customer: string;
  readonly ended_at: number | null;
  readonly items: {
    readonly object: "list";
    readonly data: readonly SubscriptionItem[];
    readonly has_more: false;
    readonly url: string;
  };
  readonly latest_invoice: string | null;
  readonly metadata: Record<string, string>;
  readonly start_date: number;
  readonly trial_start: number | null;
  readonly trial_end: number | null;
  readonly created: number;
  readonly livemode: false;
}

export interface Period {
  readonly start: number;
  readonly end: number;
}

/** The period every item shares: the sandbox bills all of a subscription's items together. */
export function periodOf(subscription: StripeSubscription): Period {
  const item = subscription.items.data[0];
  return { start: item?.current_period_start ?? subscription.start_date, end: item?.current_period_end ?? 0 };
}

/** `unix` seconds moved on by `count` intervals. */
export function addIntervalUnix(unix: number, interval: Interval, count: number): number {
  return Math.floor(addInterval(new Date(unix * 1000), interval, count).getTime() / 1000);
}
