import { addInterval, type Interval } from "../calendar.ts";

/** The Stripe objects the gateway_b sandbox keeps, shaped as the API returns them. Times are unix seconds. */
export type { Interval };
export const INTERVALS: readonly Interval[] = ["day", "week", "month", "year"];

export interface Recurring {
  readonly interval: Interval;
  readonly interval_count: number;
  readonly usage_type: "licensed";
  readonly trial_period_days: null;
}

export interface StripeProduct {
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

export interface StripePrice {
  readonly id: string;
  readonly object: "price";
  readonly active: boolean;
  readonly currency: string;
  readonly unit_amount: number;
  readonly product: string;
  readonly recurring: Recurring | null;
  readonly type: "one_time" | "recurring";
  readonly nickname: string | null;
  readonly metadata: Record<string, string>;
  readonly created: number;
  readonly livemode: false;
}

export interface CheckoutSession {
  readonly id: string;
  readonly object: "checkout.session";
  readonly url: string;
  readonly status: "open" | "complete" | "expired";
  readonly payment_status: "unpaid" | "paid" | "no_payment_required";
  readonly amount_subtotal: number;
  readonly amount_total: number;
  readonly currency: string;
  readonly client_reference_id: string | null;
  readonly customer_email: string | null;
  readonly metadata: Record<string, string>;
  readonly mode: "payment" | "subscription";
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

export interface StripeSubscription {
  readonly id: string;
  readonly object: "subscription";
  readonly status: "active" | "trialing" | "past_due" | "canceled";
  readonly currency: string;
  readonly current_period_start: number;
  readonly current_period_end: number;
  readonly trial_start: number | null;
  readonly trial_end: number | null;
  readonly cancel_at_period_end: boolean;
  readonly canceled_at: number | null;
  readonly ended_at: number | null;
  readonly metadata: Record<string, string>;
  readonly items: {
    readonly object: "list";
    readonly data: readonly {
      readonly id: string;
      readonly object: "subscription_item";
      readonly price: StripePrice;
      readonly quantity: number;
    }[];
  };
  readonly latest_invoice: string | null;
  readonly created: number;
  readonly livemode: false;
}

/** A captured payment: what refunds draw on and the balance adds up. */
export interface Payment {
  readonly id: string;
  readonly charge: string;
  readonly amount: number;
  readonly currency: string;
  readonly refunded: number;
  readonly metadata: Record<string, string>;
}

export interface StripeRefund {
  readonly id: string;
  readonly object: "refund";
  readonly amount: number;
  readonly currency: string;
  readonly status: "succeeded" | "pending" | "failed";
  readonly payment_intent: string;
  readonly charge: string;
  readonly reason: string | null;
  readonly metadata: Record<string, string>;
  readonly created: number;
}

/** `unix` seconds moved on by `count` intervals. */
export function addIntervalUnix(unix: number, interval: Interval, count: number): number {
  return Math.floor(addInterval(new Date(unix * 1000), interval, count).getTime() / 1000);
}
