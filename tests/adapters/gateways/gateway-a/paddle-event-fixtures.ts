import { aTransaction } from "./paddle-fixtures.ts";

export const event = (event_type: string, data: unknown, overrides: Record<string, unknown> = {}) => ({
  event_id: "evt_01",
  event_type,
  occurred_at: "2026-03-01T12:00:00Z",
  notification_id: "ntf_01",
  data,
  ...overrides,
});

export const paidTransaction = (overrides: Record<string, unknown> = {}) =>
  aTransaction({ status: "completed", origin: "web", currency_code: "eur", ...overrides });

export const anAdjustment = (overrides: Record<string, unknown> = {}) => ({
  id: "adj_01",
  action: "refund",
  transaction_id: "txn_01",
  status: "approved",
  totals: { total: "1500", currency_code: "eur" },
  ...overrides,
});
