import type { FulfillmentDriver } from "../catalog/drivers.ts";
import { AWAITING_VERIFIED_EMAIL, type FulfillmentStatus } from "../fulfillment/fulfillment.ts";
import type { OrderStatus } from "../orders/order-status.ts";

export type NextActionKind =
  | "pay"
  | "wait"
  | "open_workspace"
  | "download"
  | "provide_domain"
  | "verify_email"
  | "wait_for_team"
  | "retry"
  | "renew"
  | "contact_support"
  | "delivered";

export interface NextAction {
  readonly kind: NextActionKind;
  readonly label: string;
  readonly url?: string;
  readonly [detail: string]: unknown;
}

/** What the dashboard knows about one purchased item. */
export interface ItemFacts {
  readonly order_status: OrderStatus;
  readonly checkout_url: string | null;
  readonly fulfillment_id: string | null;
  readonly status: FulfillmentStatus | null;
  /** What an `awaiting_customer` delivery waits for, from its snapshot. */
  readonly awaiting: string | null;
  readonly external_status: string | null;
  readonly driver: FulfillmentDriver;
  readonly workspace_url: string | null;
  readonly license: {
    readonly key: string;
    readonly activations_used: number;
    readonly max_activations: number;
    readonly download_url: string | null;
  } | null;
  readonly task_due_at: string | null;
}

const SUSPENDED = new Set(["suspended", "expired", "past_due"]);

/** For every item the customer bought: where its delivery stands and what they can do next. */
export function nextAction(item: ItemFacts): NextAction {
  if (item.fulfillment_id === null || item.status === null) {
    if (item.order_status === "pending_payment" || item.order_status === "checkout_failed") {
      return {
        kind: "pay",
        label: "Finish paying to start delivery",
        ...(item.checkout_url ? { url: item.checkout_url } : {}),
      };
    }
    if (item.order_status === "flagged") {
      return {
        kind: "contact_support",
        label: "We are reviewing your payment; support will contact you",
        reason: "payment under review",
      };
    }
    if (item.order_status === "expired") {
      return { kind: "contact_support", label: "This order expired unpaid; order again to buy it", reason: "expired" };
    }
    if (item.order_status === "refunded" || item.order_status === "cancelled") {
      return { kind: "contact_support", label: "This order was refunded or cancelled", reason: item.order_status };
    }
    return { kind: "wait", label: "Payment received; delivery starts in a moment" };
  }
  const id = item.fulfillment_id;
  switch (item.status) {
    case "queued":
    case "processing":
      return { kind: "wait", label: "Delivery in progress" };
    case "awaiting_customer":
      if (item.awaiting === AWAITING_VERIFIED_EMAIL) {
        return {
          kind: "verify_email",
          label: "Confirm your email address with the link we sent you; delivery starts then",
          url: "/api/auth/verify-email",
        };
      }
      return {
        kind: "provide_domain",
        label: "Tell us the domain your installation should use",
        url: `/api/fulfillments/${id}/customer-input`,
      };
    case "manual_pending":
      return { kind: "wait_for_team", label: "Our team is on it", due_at: item.task_due_at };
    case "failed":
      return { kind: "retry", label: "Delivery failed; try again", url: `/api/fulfillments/${id}/retry` };
    case "cancelled":
      return {
        kind: "contact_support",
        label: "This delivery was cancelled (refund or ended subscription); buy again or contact support to restore it",
        reason: "cancelled",
      };
    case "active":
      break;
  }
  if (item.external_status && SUSPENDED.has(item.external_status)) {
    return {
      kind: "renew",
      label: "Your subscription lapsed, so access is suspended; pay the open invoice to restore it",
      reason: item.external_status,
    };
  }
  if (item.driver === "license_download" && item.license) {
    return {
      kind: "download",
      label: `Download the release and activate your license (${item.license.activations_used} of ${item.license.max_activations} activations used)`,
      ...(item.license.download_url ? { url: item.license.download_url } : {}),
      license_key: item.license.key,
      activations_used: item.license.activations_used,
      max_activations: item.license.max_activations,
    };
  }
  if (item.workspace_url) return { kind: "open_workspace", label: "Open your workspace", url: item.workspace_url };
  return { kind: "delivered", label: "Delivered" };
}
