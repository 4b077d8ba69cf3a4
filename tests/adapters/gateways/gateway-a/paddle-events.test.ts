import { describe, expect, test } from "bun:test";
import { createPaddleGateway } from "../../../../adapters/gateways/gateway-a/paddle-client.ts";
import { normalizePaddleEvent } from "../../../../adapters/gateways/gateway-a/paddle-events.ts";
import { createStaticGatewaySettings } from "../../../support/fakes/static-gateway-settings.ts";
import { anAdjustment, event, paidTransaction } from "./paddle-event-fixtures.ts";
import { aSubscription } from "./paddle-fixtures.ts";

describe("paid", () => {
  test.each(["transaction.completed", "transaction.paid"])("%s of a one-time purchase", (type) => {
    expect(normalizePaddleEvent(event(type, paidTransaction()))).toEqual({
      gateway: "gateway_a",
      event_id: "evt_01",
      kind: "paid",
      order_id: "ord_1",
      payment: { payment_id: "txn_01" },
      amount: 2900,
      tax: 0,
      pre_tax: 2900,
      discount: 0,
      currency: "EUR",
      subscription: null,
    });
  });

  test("the first payment of a subscription carries its id and period end", () => {
    const data = paidTransaction({
      origin: "web",
      subscription_id: "sub_01",
      billing_period: { starts_at: "2026-03-01T12:00:00Z", ends_at: "2026-04-01T12:00:00Z" },
    });
    expect(normalizePaddleEvent(event("transaction.completed", data))).toMatchObject({
      kind: "paid",
      subscription: { subscription_id: "sub_01", trial_ends_at: null, current_period_end: "2026-04-01T12:00:00Z" },
    });
  });
});

test.each(["transaction.completed", "transaction.paid"])("%s of a recurring charge is a renewal", (type) => {
  const data = paidTransaction({
    origin: "subscription_recurring",
    subscription_id: "sub_01",
    billing_period: { starts_at: "2026-04-01T12:00:00Z", ends_at: "2026-05-01T12:00:00Z" },
    id: "txn_02",
  });
  expect(normalizePaddleEvent(event(type, data))).toEqual({
    gateway: "gateway_a",
    event_id: "evt_01",
    kind: "renewed",
    subscription_id: "sub_01",
    order_id: "ord_1",
    payment: { payment_id: "txn_02" },
    amount: 2900,
    tax: 0,
    pre_tax: 2900,
    discount: 0,
    currency: "EUR",
    current_period_end: "2026-05-01T12:00:00Z",
  });
});

test.each([
  ["subscription.canceled", "cancelled", { status: "canceled", canceled_at: "2026-03-02T00:00:00Z" }],
  [
    "subscription.updated",
    "subscription_updated",
    { scheduled_change: { action: "cancel", effective_at: "2026-02-01T00:00:00Z", resume_at: null } },
  ],
] as const)("%s is %s, naming the subscription and its order", (type, kind, change) => {
  expect(normalizePaddleEvent(event(type, aSubscription(change)))).toEqual({
    gateway: "gateway_a",
    event_id: "evt_01",
    kind,
    subscription_id: "sub_01",
    order_id: "ord_1",
  });
  const withoutOrder = normalizePaddleEvent(event(type, aSubscription({ custom_data: null })));
  expect(withoutOrder).toMatchObject({ kind, order_id: null });
});

describe("adjustments", () => {
  test.each(["adjustment.created", "adjustment.updated"])("%s of an approved refund is a refund", (type) => {
    expect(normalizePaddleEvent(event(type, anAdjustment()))).toEqual({
      gateway: "gateway_a",
      event_id: "evt_01",
      kind: "refunded",
      payment: { payment_id: "txn_01" },
      order_id: null,
      refund_id: anAdjustment().id,
      cumulative: false,
      amount: 1500,
      currency: "EUR",
    });
  });

  test.each([
    ["pending approval", anAdjustment({ status: "pending_approval" })],
    ["rejected", anAdjustment({ status: "rejected" })],
    ["a credit, not a refund", anAdjustment({ action: "credit" })],
    ["a chargeback warning", anAdjustment({ action: "chargeback_warning" })],
  ])("an adjustment %s is ignored", (_, data) => {
    expect(normalizePaddleEvent(event("adjustment.created", data))).toEqual({
      gateway: "gateway_a",
      event_id: "evt_01",
      kind: "ignored",
      type: "adjustment.created",
    });
  });
});

test("totals with tax: grand_total holds it, the amount before tax is subtotal less discount", () => {
  const data = paidTransaction({
    details: { totals: { subtotal: "3000", discount: "100", tax: "551", total: "3451", grand_total: "3451" } },
  });
  expect(normalizePaddleEvent(event("transaction.completed", data))).toMatchObject({
    amount: 3451,
    tax: 551,
    pre_tax: 2900,
    discount: 100,
  });
});

describe("chargebacks", () => {
  test("an approved chargeback opens a dispute on its transaction; its reversal wins it", () => {
    const opened = normalizePaddleEvent(event("adjustment.created", anAdjustment({ action: "chargeback" })));
    expect(opened).toEqual({
      gateway: "gateway_a",
      event_id: "evt_01",
      kind: "dispute_opened",
      payment: { payment_id: "txn_01" },
      order_id: null,
      dispute_id: "chargeback:txn_01",
      amount: 1500,
      currency: "EUR",
    });
    const reversed = normalizePaddleEvent(event("adjustment.created", anAdjustment({ action: "chargeback_reverse" })));
    expect(reversed).toMatchObject({ kind: "dispute_won", dispute_id: "chargeback:txn_01" });
  });
});

test("transaction.payment_failed is a failed payment with Paddle's error code", () => {
  const data = paidTransaction({
    status: "past_due",
    subscription_id: "sub_01",
    payments: [{ status: "error", error_code: "declined" }],
  });
  expect(normalizePaddleEvent(event("transaction.payment_failed", data))).toEqual({
    gateway: "gateway_a",
    event_id: "evt_01",
    kind: "payment_failed",
    order_id: "ord_1",
    subscription_id: "sub_01",
    reason: "declined",
  });
});

test.each([
  ["no order in custom_data", { integration: "theirs" }],
  ["no custom_data", null],
])("a transaction with %s is not ours: ignored, with why", (_, custom_data) => {
  for (const type of ["transaction.completed", "transaction.paid"]) {
    expect(normalizePaddleEvent(event(type, paidTransaction({ custom_data, details: undefined })))).toEqual({
      gateway: "gateway_a",
      event_id: "evt_01",
      kind: "ignored",
      type,
      not_ours: "the transaction names no order",
    });
  }
});

test.each(["transaction.created", "subscription.created", "customer.created"])("%s is ignored", (type) => {
  expect(normalizePaddleEvent(event(type, { id: "x" }))).toEqual({
    gateway: "gateway_a",
    event_id: "evt_01",
    kind: "ignored",
    type,
  });
});

test("the gateway normalizes through the same function", () => {
  const gateway = createPaddleGateway({ settings: createStaticGatewaySettings() });
  expect(gateway.normalizeWebhookPayload(event("transaction.paid", paidTransaction()))).toMatchObject({
    kind: "paid",
    payment: { payment_id: "txn_01" },
  });
});
