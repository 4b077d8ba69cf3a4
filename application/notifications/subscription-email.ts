import { formatMinorUnits } from "../../domain/shared/money.ts";
import type { NewEmail } from "../mail/ports.ts";
import type { NotificationOutboxMessage, SubscriptionMailFacts, SubscriptionNoticeKind } from "./ports.ts";

/** The links a subscription's emails carry, made when the email is. */
export interface SubscriptionMailLinks {
  /** The signed link that opens the gateway's portal to enter a new card, without signing in. */
  billingPortal(subscriptionId: string): Promise<string>;
  /** The signed link that redirects to the gateway's invoice for one payment of the order. */
  invoice(orderId: string, paymentId: string): Promise<string>;
}

/** The links every customer email ends with: the order, and the account (or, for a guest, setting a password). */
export interface CommonMailLinks {
  readonly orderUrl: string;
  readonly accountLabel: string;
  readonly accountUrl: string;
}

const text = (value: unknown) => (typeof value === "string" ? value : "");

const amountOf = (amount: unknown, currency: unknown) =>
  typeof amount === "number" && typeof currency === "string" ? formatMinorUnits(amount, currency) : "";

/** `2026-12-01T10:00:00Z` → "1 December 2026", in UTC. */
export function formatDay(iso: unknown): string {
  if (typeof iso !== "string") return "";
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return "";
  return at.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
}

/**
 * The email telling a subscriber that a renewal failed (with the link that opens the gateway's
 * portal to fix the card), that a trial ends soon, or that a renewal was paid (with its invoice).
 * Keyed by the notification, so a notification handled twice is emailed once.
 */
export async function subscriptionEmail(
  message: NotificationOutboxMessage & { readonly kind: SubscriptionNoticeKind },
  facts: SubscriptionMailFacts,
  common: CommonMailLinks,
  links: SubscriptionMailLinks,
): Promise<NewEmail> {
  const data = message.payload;
  const base = {
    customer_name: facts.customer_name,
    product_name: facts.product_name,
    order_url: common.orderUrl,
    account_label: common.accountLabel,
    account_url: common.accountUrl,
  };
  const values: Record<string, string> =
    message.kind === "subscription.payment_failed"
      ? { ...base, portal_url: await links.billingPortal(text(data.subscription_id)) }
      : message.kind === "subscription.trial_ending"
        ? { ...base, trial_end: formatDay(data.trial_ends_at) }
        : message.kind === "subscription.plan_changed"
          ? {
              ...base,
              from: text(data.from),
              to: text(data.to),
              period_end: formatDay(data.current_period_end),
            }
          : {
              ...base,
              amount: amountOf(data.amount, data.currency),
              period_end: formatDay(data.current_period_end),
              invoice_url: await links.invoice(facts.order_id, text(data.payment_id)),
            };
  return { key: `notification:${message.id}`, template: message.kind, to: facts.customer_email, data: values };
}
