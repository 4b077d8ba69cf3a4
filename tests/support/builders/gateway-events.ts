import type { GatewayEvent } from "../../../domain/payments/gateway-event.ts";

type Of<K extends GatewayEvent["kind"]> = Extract<GatewayEvent, { kind: K }>;

const eventId = () => `evt_${crypto.randomUUID().slice(0, 12)}`;

/** A matching first payment of 4900 EUR (before tax: no tax) at gateway_b for `order_id`. */
export function aPaidEvent(overrides: Partial<Of<"paid">> & Pick<Of<"paid">, "order_id">): Of<"paid"> {
  return {
    gateway: "gateway_b",
    event_id: eventId(),
    kind: "paid",
    payment: { payment_id: `pi_${crypto.randomUUID().slice(0, 8)}` },
    amount: 4900,
    tax: 0,
    pre_tax: 4900,
    discount: 0,
    currency: "EUR",
    subscription: null,
    ...overrides,
  };
}

export function aRenewedEvent(
  overrides: Partial<Of<"renewed">> & Pick<Of<"renewed">, "subscription_id">,
): Of<"renewed"> {
  return {
    gateway: "gateway_b",
    event_id: eventId(),
    kind: "renewed",
    order_id: null,
    payment: { payment_id: `pi_${crypto.randomUUID().slice(0, 8)}` },
    amount: 4900,
    tax: 0,
    pre_tax: 4900,
    discount: 0,
    currency: "EUR",
    current_period_end: "2026-03-01T00:00:00.000Z",
    ...overrides,
  };
}

/** A single refund of `amount` (default 4900 EUR) naming its payment and its own refund id. */
export function aRefundedEvent(overrides: Partial<Of<"refunded">> & Pick<Of<"refunded">, "payment">): Of<"refunded"> {
  return {
    gateway: "gateway_b",
    event_id: eventId(),
    kind: "refunded",
    order_id: null,
    refund_id: `re_${crypto.randomUUID().slice(0, 8)}`,
    amount: 4900,
    cumulative: false,
    currency: "EUR",
    ...overrides,
  };
}

type Dispute = Extract<GatewayEvent, { kind: "dispute_opened" | "dispute_won" | "dispute_lost" }>;

export function aDisputeEvent(
  kind: Dispute["kind"],
  overrides: Partial<Omit<Dispute, "kind">> & Pick<Dispute, "payment" | "dispute_id">,
): Dispute {
  return {
    gateway: "gateway_b",
    event_id: eventId(),
    order_id: null,
    amount: 4900,
    currency: "EUR",
    ...overrides,
    kind,
  };
}

/**
 * One event of every kind, each field filled in the ways a gateway fills it (optional ids present
 * and absent, nulls, booleans, timestamps as ISO strings): what a codec must give back unchanged.
 */
export const ONE_OF_EACH_KIND: Readonly<Record<GatewayEvent["kind"], GatewayEvent>> = {
  paid: aPaidEvent({
    order_id: "3c0d6f9e-8a61-4c4e-9a55-0d1f7c2b9e11",
    livemode: false,
    amount: 5831,
    tax: 931,
    pre_tax: 4900,
    payment: { payment_id: "pi_1", payment_intent_id: "pi_1", invoice_id: "in_1" },
    subscription: {
      subscription_id: "sub_1",
      trial_ends_at: "2026-01-15T00:00:00.000Z",
      current_period_end: "2026-02-15T00:00:00.000Z",
    },
  }),
  renewed: aRenewedEvent({
    subscription_id: "sub_1",
    order_id: "3c0d6f9e-8a61-4c4e-9a55-0d1f7c2b9e11",
    payment: { payment_id: null, invoice_id: "in_2", charge_id: null },
    livemode: null,
  }),
  prorated: {
    gateway: "gateway_a",
    event_id: "evt_p",
    kind: "prorated",
    subscription_id: "sub_1",
    order_id: "3c0d6f9e-8a61-4c4e-9a55-0d1f7c2b9e11",
    payment: { payment_id: "txn_2" },
    amount: 9167,
    tax: 0,
    pre_tax: 9167,
    discount: 0,
    currency: "USD",
  },
  cancelled: { gateway: "gateway_a", event_id: "evt_c", kind: "cancelled", subscription_id: "sub_2", order_id: null },
  subscription_updated: {
    gateway: "gateway_a",
    event_id: "evt_u",
    kind: "subscription_updated",
    subscription_id: "sub_2",
    order_id: "3c0d6f9e-8a61-4c4e-9a55-0d1f7c2b9e11",
  },
  trial_ending: {
    gateway: "gateway_b",
    event_id: "evt_t",
    kind: "trial_ending",
    subscription_id: "sub_4",
    order_id: null,
    trial_ends_at: "2026-03-15T12:00:00.000Z",
  },
  refunded: aRefundedEvent({
    payment: { payment_id: "pi_1", charge_id: "ch_1" },
    refund_id: null,
    amount: 12_345_678_901,
    cumulative: true,
    livemode: true,
  }),
  dispute_opened: aDisputeEvent("dispute_opened", { payment: { payment_id: "txn_1" }, dispute_id: "dp_1" }),
  dispute_won: aDisputeEvent("dispute_won", { payment: { payment_id: "txn_1" }, dispute_id: "dp_1" }),
  dispute_lost: aDisputeEvent("dispute_lost", { payment: { payment_id: null, charge_id: "ch_9" }, dispute_id: "dp_2" }),
  payment_failed: {
    gateway: "gateway_b",
    event_id: "evt_f",
    kind: "payment_failed",
    order_id: null,
    subscription_id: "sub_3",
    reason: "card_declined: ünïcode ✓",
  },
  ignored: { gateway: "gateway_b", event_id: "evt_i", kind: "ignored", type: "customer.created" },
};
