import type { Schemas } from "../shared/api.ts";

/** Options for a `Select`: a value and its words. */
export type Choices = readonly (readonly [string, string])[];

/** Records over the API's unions, so a value the API gains fails to compile until it has words here. */
export const GATEWAY_NAMES: Readonly<Record<Schemas["PaymentGateway"], string>> = {
  gateway_a: "Gateway A",
  gateway_b: "Gateway B",
};

export const DRIVER_NAMES: Readonly<Record<Schemas["FulfillmentDriver"], string>> = {
  multitenant_saas: "Multi-tenant SaaS",
  singletenant_provisioning: "Single-tenant provisioning",
  license_download: "License and download",
  manual_fulfillment: "Manual fulfillment",
};

export const FULFILLMENT_STATUS_NAMES: Readonly<Record<Schemas["FulfillmentStatus"], string>> = {
  queued: "Queued",
  processing: "Processing",
  active: "Active",
  awaiting_customer: "Waiting for the customer",
  manual_pending: "Waiting for operations",
  failed: "Failed",
  cancelled: "Cancelled",
};

export const ORDER_STATUS_NAMES: Readonly<Record<Schemas["OrderStatus"], string>> = {
  pending_payment: "Waiting for payment",
  checkout_failed: "Checkout failed",
  paid: "Paid",
  flagged: "Flagged",
  partially_refunded: "Partially refunded",
  refunded: "Refunded",
  disputed: "Disputed",
  charged_back: "Charged back",
  cancelled: "Cancelled",
  expired: "Expired unpaid",
};

/** "Any" first, then every value of `names`. */
export const choicesOf = (names: Readonly<Record<string, string>>, any: string): Choices => [
  ["", any],
  ...Object.entries(names),
];

/** The start of an id: enough to tell rows apart by eye; the full id is in the link. */
export const shortId = (id: string) => id.slice(0, 8);
