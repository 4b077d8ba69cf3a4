import { describe, expect, test } from "bun:test";
import { normalizeStripeEvent } from "../../../../adapters/gateways/gateway-b/stripe-events.ts";

const anEvent = (type: string, object: Record<string, unknown>) => ({
  id: "evt_1",
  object: "event",
  type,
  created: 1772366400,
  livemode: false,
  data: { object },
});

const base = { gateway: "gateway_b", event_id: "evt_1", livemode: false } as const;

test("charge.refunded names the payment by its payment intent and its charge", () => {
  const charge = { id: "ch_1", payment_intent: "pi_1", amount_refunded: 1000, currency: "usd", metadata: {} };
  expect(normalizeStripeEvent(anEvent("charge.refunded", charge))).toEqual({
    ...base,
    kind: "refunded",
    payment: { payment_id: "pi_1", payment_intent_id: "pi_1", charge_id: "ch_1", invoice_id: null },
    order_id: null,
    refund_id: null,
    cumulative: true,
    amount: 1000,
    currency: "USD",
  });
});

describe("disputes", () => {
  const dispute = (status: string) => ({
    id: "dp_1",
    object: "dispute",
    charge: "ch_1",
    payment_intent: "pi_1",
    amount: 4900,
    currency: "usd",
    status,
    metadata: {},
  });
  const payment = { payment_id: "pi_1", payment_intent_id: "pi_1", charge_id: "ch_1" };

  test("charge.dispute.created opens a dispute on the payment", () => {
    expect(normalizeStripeEvent(anEvent("charge.dispute.created", dispute("needs_response")))).toEqual({
      ...base,
      kind: "dispute_opened",
      payment,
      order_id: null,
      dispute_id: "dp_1",
      amount: 4900,
      currency: "USD",
    });
  });

  test.each([
    ["won", "dispute_won"],
    ["lost", "dispute_lost"],
  ])("charge.dispute.closed as %s is %s", (status, kind) => {
    expect(normalizeStripeEvent(anEvent("charge.dispute.closed", dispute(status)))).toMatchObject({ kind, payment });
  });

  test("a dispute closed as a warning only is ignored", () => {
    const event = normalizeStripeEvent(anEvent("charge.dispute.closed", dispute("warning_closed")));
    expect(event).toEqual({ ...base, kind: "ignored", type: "charge.dispute.closed" });
  });
});
