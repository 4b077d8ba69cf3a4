import type { Order, OrderItem } from "../../domain/orders/order.ts";
import type { SubscriptionFacts } from "../../domain/payments/gateway-event.ts";

export interface SubscriptionRecord {
  readonly id: string;
  readonly order_id: string;
  readonly order_item_id: string;
  readonly customer_id: string;
  readonly product_id: string;
  readonly gateway: string;
  readonly gateway_subscription_id: string | null;
  readonly status: "trialing" | "active" | "past_due" | "suspended" | "cancelled";
  readonly billing_interval: "monthly" | "yearly";
  readonly trial_ends_at: Date | null;
  readonly current_period_end: Date | null;
  readonly cancelled_at: Date | null;
  /** The gateway ends it at `current_period_end`; until then it is delivered as before. */
  readonly cancel_at_period_end: boolean;
  /** A plan change the gateway makes at `pending_at` (the end of the paid period); null without one. */
  readonly pending_interval: "monthly" | "yearly" | null;
  readonly pending_at: Date | null;
}

/** What an update may set; a field left out stays as it is. */
export type SubscriptionChange = Partial<
  Pick<
    SubscriptionRecord,
    "status" | "current_period_end" | "trial_ends_at" | "cancelled_at" | "cancel_at_period_end" | "billing_interval"
  >
> & {
  /** A plan change waiting for the period end is recorded, or (null) forgotten. */
  readonly pending?: { readonly interval: "monthly" | "yearly"; readonly at: Date } | null;
};

export interface SubscriptionRepository {
  upsertForItem(input: {
    order: Order;
    item: OrderItem;
    facts: SubscriptionFacts | null;
    now: Date;
  }): Promise<SubscriptionRecord>;
  find(id: string): Promise<SubscriptionRecord | undefined>;
  findForItem(orderItemId: string): Promise<SubscriptionRecord | undefined>;
  /** Locks the rows inside a transaction: one gateway subscription can bill several items. */
  findByGatewayId(gateway: string, gatewaySubscriptionId: string): Promise<SubscriptionRecord[]>;
  update(id: string, change: SubscriptionChange): Promise<void>;
  /**
   * A mark of the rows one gateway subscription bills that changes whenever what an older answer
   * of the gateway could set back changes (the scheduled cancellation, the plan and a pending plan
   * change); inside a transaction it locks the rows. Read before a call to the gateway and again
   * after, it tells whether the gateway's answer may be older than what was written meanwhile.
   */
  versionOf(gateway: string, gatewaySubscriptionId: string): Promise<string>;
  /** Subscriptions whose paid period (or trial) ended more than `graceHours` before `now`. */
  lapsed(now: Date, graceHours: number, limit: number): Promise<SubscriptionRecord[]>;
  /**
   * Trialing subscriptions whose trial ends after `now` and within `withinHours`, and whose
   * subscriber was not told yet (`subscription.trial_ending`), soonest first.
   */
  trialsEnding(now: Date, withinHours: number, limit: number): Promise<SubscriptionRecord[]>;
}
