import { describe, expect, test } from "bun:test";
import { normalizePaddleEvent } from "../../../../adapters/gateways/gateway-a/paddle-events.ts";
import { InvalidWebhookPayload } from "../../../../domain/payments/errors.ts";
import { anAdjustment, event, paidTransaction } from "./paddle-event-fixtures.ts";
import { aSubscription } from "./paddle-fixtures.ts";

describe("invalid payloads", () => {
  const { details: _, ...noDetails } = paidTransaction();
  test.each([
    ["not an object", "transaction.completed"],
    ["an array", []],
    ["no event_id", event("transaction.completed", paidTransaction(), { event_id: undefined })],
    ["a numeric event_type", event("transaction.completed", paidTransaction(), { event_type: 7 })],
    ["data that is not an object", event("transaction.completed", "txn_01")],
    ["a paid event without totals", event("transaction.completed", noDetails)],
    [
      "a paid event with a non-numeric total",
      event("transaction.completed", paidTransaction({ details: { totals: { grand_total: "29.00" } } })),
    ],
    ["a paid event without currency", event("transaction.completed", paidTransaction({ currency_code: null }))],
    [
      "a renewal without subscription_id",
      event("transaction.completed", paidTransaction({ origin: "subscription_recurring" })),
    ],
    ["a refund without transaction_id", event("adjustment.updated", anAdjustment({ transaction_id: undefined }))],
    ["a refund with a numeric total", event("adjustment.created", anAdjustment({ totals: { total: 1500 } }))],
    ["a cancellation without id", event("subscription.canceled", aSubscription({ id: undefined }))],
  ])("%s", (_, payload) => {
    expect(() => normalizePaddleEvent(payload)).toThrow(InvalidWebhookPayload);
  });
});
