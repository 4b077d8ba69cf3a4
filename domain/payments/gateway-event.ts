import type { PaymentGatewayName } from "../catalog/product.ts";
import type { ChargedAmount, PaymentReferences } from "./payment.ts";

export type GatewayEnvironment = "sandbox" | "live";
export const GATEWAY_ENVIRONMENTS: readonly GatewayEnvironment[] = ["sandbox", "live"];

/** What a gateway tells us about a subscription when money moves. Times are ISO 8601. */
export interface SubscriptionFacts {
  readonly subscription_id: string;
  readonly trial_ends_at: string | null;
  readonly current_period_end: string | null;
}

/**
 * How an event names a payment: its own id when it has one (a payment intent, a transaction), and
 * whatever else it carries (an invoice, a charge). A Stripe subscription's first session names only
 * its invoice: the payment behind it is looked up at the gateway (`PaymentGateway.resolvePayment`).
 */
export interface PaymentPointer extends PaymentReferences {
  readonly payment_id: string | null;
}

interface EventBase {
  readonly gateway: PaymentGatewayName;
  /** The gateway's own event id: the inbox deduplicates on `(gateway, event_id)`. */
  readonly event_id: string;
  /** What the event says of its environment (Stripe's `livemode`); null when it says nothing. */
  readonly livemode?: boolean | null;
}

/**
 * Every gateway webhook becomes one of these neutral events, so nothing downstream knows which
 * gateway spoke. Amounts are integer minor units; currencies are upper-case ISO 4217.
 */
export type GatewayEvent =
  | (EventBase &
      ChargedAmount & {
        readonly kind: "paid";
        readonly order_id: string;
        readonly payment: PaymentPointer;
        readonly subscription: SubscriptionFacts | null;
      })
  | (EventBase &
      ChargedAmount & {
        readonly kind: "renewed";
        readonly subscription_id: string;
        readonly order_id: string | null;
        readonly payment: PaymentPointer;
        readonly current_period_end: string | null;
      })
  /** A plan change billed at once: the difference is charged on the subscription's order. */
  | (EventBase &
      ChargedAmount & {
        readonly kind: "prorated";
        readonly subscription_id: string;
        readonly order_id: string | null;
        readonly payment: PaymentPointer;
      })
  | (EventBase & { readonly kind: "cancelled"; readonly subscription_id: string; readonly order_id: string | null })
  /**
   * A subscription changed at the gateway (a cancellation scheduled or withdrawn, a period moved).
   * The body is not trusted for the state: events overtake each other, so the job reads the
   * subscription as it is now.
   */
  | (EventBase & {
      readonly kind: "subscription_updated";
      readonly subscription_id: string;
      readonly order_id: string | null;
    })
  /** A trial ends soon (Stripe says so three days before): the subscriber is told. */
  | (EventBase & {
      readonly kind: "trial_ending";
      readonly subscription_id: string;
      readonly order_id: string | null;
      readonly trial_ends_at: string | null;
    })
  | (EventBase & {
      readonly kind: "refunded";
      readonly payment: PaymentPointer;
      readonly order_id: string | null;
      /** The gateway's id of this refund, when it names one. */
      readonly refund_id: string | null;
      /** This refund's amount, or (when `cumulative`) everything refunded on the payment so far. */
      readonly amount: number;
      readonly cumulative: boolean;
      readonly currency: string;
    })
  | (EventBase & {
      readonly kind: "dispute_opened" | "dispute_won" | "dispute_lost";
      readonly payment: PaymentPointer;
      readonly order_id: string | null;
      readonly dispute_id: string;
      readonly amount: number;
      readonly currency: string;
    })
  | (EventBase & {
      readonly kind: "payment_failed";
      readonly order_id: string | null;
      readonly subscription_id: string | null;
      readonly reason: string;
    })
  | (EventBase & {
      readonly kind: "ignored";
      readonly type: string;
      /**
       * Set when the event is about something this marketplace did not create (another integration
       * on the same gateway account): why it is not ours. Absent for a type nothing acts on.
       */
      readonly not_ours?: string;
    });
