/**
 * The fields of Stripe's Subscription that the sandbox never varies, as Stripe answers them for a
 * subscription a Checkout Session started with a card: flexible billing mode (the default since
 * 2025-09-30.clover), charged automatically, no tax automation, schedule, discount or test clock.
 */
export const subscriptionDefaults = (created: number) =>
  ({
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: { proration_discounts: "included" }, type: "flexible", updated_at: created },
    billing_schedules: [] as readonly never[],
    billing_thresholds: null,
    customer_account: null,
    days_until_due: null,
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [] as readonly never[],
    description: null,
    discounts: [] as readonly string[],
    invoice_settings: {
      account_tax_ids: null,
      custom_fields: null,
      description: null,
      footer: null,
      issuer: { type: "self" },
    },
    managed_payments: null,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: {
      payment_method_options: null,
      payment_method_types: null,
      save_default_payment_method: "off",
    },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null as string | null,
    test_clock: null,
    transfer_data: null,
    trial_settings: { end_behavior: { billing_cycle_anchor: null, missing_payment_method: "create_invoice" } },
  }) as const;

export type SubscriptionDefaults = ReturnType<typeof subscriptionDefaults>;

/** What a Plan copies of a sandbox price (a `StripePrice`). */
interface PlanPrice {
  readonly id: string;
  readonly active: boolean;
  readonly unit_amount: number;
  readonly unit_amount_decimal: string;
  readonly billing_scheme: "per_unit";
  readonly created: number;
  readonly currency: string;
  readonly recurring: { readonly interval: "day" | "week" | "month" | "year"; readonly interval_count: number } | null;
  readonly metadata: Record<string, string>;
  readonly nickname: string | null;
  readonly product: string;
}

/** The legacy Plan every subscription item still carries beside its recurring price. */
export function planOf(price: PlanPrice) {
  return {
    id: price.id,
    object: "plan" as const,
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: price.billing_scheme,
    created: price.created,
    currency: price.currency,
    interval: price.recurring?.interval ?? "month",
    interval_count: price.recurring?.interval_count ?? 1,
    livemode: false as const,
    metadata: price.metadata,
    meter: null,
    nickname: price.nickname,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: "licensed" as const,
  };
}

/** A subscription's cancellation details, with the `feedback_option` the pinned API version adds. */
export const cancellationDetails = (reason: "cancellation_requested" | null) => ({
  comment: null,
  feedback: null,
  feedback_option: null,
  reason,
});
