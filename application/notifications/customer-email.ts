import { AWAITING_VERIFIED_EMAIL } from "../../domain/fulfillment/fulfillment.ts";
import type { NewEmail } from "../mail/ports.ts";
import type { FulfillmentMailFacts, NotificationOutboxMessage } from "./ports.ts";

const isWebLink = (value: string | null): value is string => value !== null && /^https?:\/\/[^\s]+$/i.test(value);

function readyAction(facts: FulfillmentMailFacts, orderUrl: string): { label: string; url: string } {
  if (isWebLink(facts.workspace_url)) {
    const what = facts.driver === "singletenant_provisioning" ? "installation" : "workspace";
    return { label: `Open your ${what}`, url: facts.workspace_url };
  }
  if (facts.driver === "license_download") {
    return { label: "Download the release and activate your license from your order page", url: orderUrl };
  }
  return { label: "See what was delivered on your order page", url: orderUrl };
}

/** What a guest's email links to instead of pages that need signing in. */
export interface GuestMailLinks {
  /** The order status page with the order's signed access. */
  readonly orderUrl: string;
  /** The page that sets a password on the guest record. */
  readonly claimUrl: string;
}

/**
 * The email telling a customer that a delivery is ready, failed, or waits for them: what happened, the next step
 * and its link, their order's page under the public base URL, and their account (for a guest, the
 * link that sets a password). Keyed by the notification, so a notification handled twice is
 * emailed once.
 */
export function customerEmail(
  message: NotificationOutboxMessage,
  facts: FulfillmentMailFacts,
  publicBaseUrl: string,
  guest?: GuestMailLinks,
): NewEmail {
  const orderUrl = guest?.orderUrl ?? new URL(`/orders/${encodeURIComponent(facts.order_id)}`, publicBaseUrl).href;
  const account = guest
    ? { label: "Set a password to keep your orders in an account", url: guest.claimUrl }
    : { label: "Your account", url: new URL("/account", publicBaseUrl).href };
  const action =
    message.kind === "fulfillment.ready"
      ? readyAction(facts, orderUrl)
      : message.kind === "fulfillment.failed"
        ? { label: "Try the delivery again from your order page", url: orderUrl }
        : facts.awaiting === AWAITING_VERIFIED_EMAIL
          ? guest
            ? // The set-a-password link goes in `account_url` only, which is erased once the email is sent.
              { label: "Confirm your email address: set a password with the link below", url: guest.orderUrl }
            : {
                label:
                  "Confirm your email address with the link we sent you, or ask for a new one on your account page",
                url: new URL("/account", publicBaseUrl).href,
              }
          : { label: "Tell us the domain your installation should use, on your order page", url: orderUrl };
  return {
    key: `notification:${message.id}`,
    template: message.kind,
    to: facts.customer_email,
    data: {
      customer_name: facts.customer_name,
      product_name: facts.product_name,
      order_url: orderUrl,
      action_label: action.label,
      action_url: action.url,
      attempts: String(facts.attempts),
      account_label: account.label,
      account_url: account.url,
    },
  };
}
