import { expect, test } from "bun:test";
import { type ItemFacts, nextAction } from "../../../domain/dashboard/next-action.ts";

const item = (overrides: Partial<ItemFacts>): ItemFacts => ({
  order_status: "paid",
  checkout_url: null,
  fulfillment_id: "f-1",
  status: "active",
  awaiting: null,
  external_status: null,
  driver: "multitenant_saas",
  workspace_url: null,
  license: null,
  task_due_at: null,
  ...overrides,
});

test.each([
  [
    "an active SaaS tenant opens its workspace",
    item({ workspace_url: "https://ws.example/t" }),
    { kind: "open_workspace", url: "https://ws.example/t" },
  ],
  [
    "a license shows its key, its download link and activations used of the maximum",
    item({
      driver: "license_download",
      license: {
        key: "MKT1.k.s",
        activations_used: 1,
        max_activations: 3,
        download_url: "https://shop/api/downloads/t",
      },
    }),
    {
      kind: "download",
      url: "https://shop/api/downloads/t",
      license_key: "MKT1.k.s",
      activations_used: 1,
      max_activations: 3,
    },
  ],
  [
    "a single-tenant item awaiting the customer asks for a domain",
    item({ status: "awaiting_customer", driver: "singletenant_provisioning" }),
    { kind: "provide_domain", url: "/api/fulfillments/f-1/customer-input" },
  ],
  [
    "an item held for a verified address asks for one, whatever its driver",
    item({ status: "awaiting_customer", driver: "singletenant_provisioning", awaiting: "verify_email" }),
    { kind: "verify_email", url: "/api/auth/verify-email" },
  ],
  [
    "a manual item waits for the team, with the SLA due time",
    item({ status: "manual_pending", driver: "manual_fulfillment", task_due_at: "2026-12-01T10:00:00.000Z" }),
    { kind: "wait_for_team", due_at: "2026-12-01T10:00:00.000Z" },
  ],
  [
    "a failed delivery can be retried",
    item({ status: "failed" }),
    { kind: "retry", url: "/api/fulfillments/f-1/retry" },
  ],
  [
    "a cancelled delivery says why and what to do",
    item({ status: "cancelled" }),
    { kind: "contact_support", reason: "cancelled" },
  ],
  [
    "a suspended tenant says why and how to restore it",
    item({ external_status: "suspended", workspace_url: "https://ws.example/t" }),
    { kind: "renew", reason: "suspended" },
  ],
  [
    "an unpaid order links back to its checkout",
    item({ order_status: "pending_payment", fulfillment_id: null, status: null, checkout_url: "https://pay/x" }),
    { kind: "pay", url: "https://pay/x" },
  ],
  [
    "an expired order offers no checkout link any more",
    item({ order_status: "expired", fulfillment_id: null, status: null, checkout_url: "https://pay/x" }),
    { kind: "contact_support", reason: "expired" },
  ],
  [
    "a flagged payment goes to support",
    item({ order_status: "flagged", fulfillment_id: null, status: null }),
    { kind: "contact_support", reason: "payment under review" },
  ],
  ["a queued delivery is in progress", item({ status: "queued" }), { kind: "wait" }],
  ["a finished service without a URL is delivered", item({ driver: "manual_fulfillment" }), { kind: "delivered" }],
])("%s", (_name, facts, expected) => {
  const action = nextAction(facts);
  expect(action).toMatchObject({ ...expected });
  expect(typeof action.label).toBe("string");
  expect(action.label.length).toBeGreaterThan(5);
});
