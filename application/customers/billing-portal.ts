import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import type { SubscriptionRecord, SubscriptionRepository } from "../fulfillment/ports.ts";
import type { PaymentGateway } from "../payments/ports.ts";
import type { EmailedLinks } from "./emailed-links.ts";
import { LinkExpired, SubscriptionChangeRefused, SubscriptionNotFound } from "./errors.ts";
import type { SignedLink } from "./ports.ts";

export interface BillingPortalDeps {
  readonly subscriptions: Pick<SubscriptionRepository, "find">;
  readonly gateways: Readonly<Record<PaymentGatewayName, Pick<PaymentGateway, "billingPortalUrl">>>;
  /** The emailed links' signing, keyed for this purpose alone. */
  readonly links: EmailedLinks;
  /** Where the gateway's portal leads back to: the account page. */
  readonly returnUrl: string;
}

/**
 * The page of the gateway's customer portal where a subscriber enters a new card, opened from the
 * account (signed in) or from an email (a signed link that expires). Each opening asks the gateway
 * for a fresh session: the gateways' portal links are short-lived. What happens there (a past-due
 * renewal collected with the new card) comes back as the gateway's events.
 */
export function makeBillingPortal(deps: BillingPortalDeps) {
  async function open(record: SubscriptionRecord): Promise<{ url: string }> {
    if (record.status === "cancelled") throw new SubscriptionChangeRefused("cancelled");
    if (!record.gateway_subscription_id) throw new SubscriptionChangeRefused("unconfirmed");
    const gateway = deps.gateways[record.gateway as PaymentGatewayName];
    return { url: await gateway.billingPortalUrl(record.gateway_subscription_id, deps.returnUrl) };
  }

  return {
    async open(customerId: string, id: string): Promise<{ url: string }> {
      const record = await deps.subscriptions.find(id);
      // Another customer's subscription is simply not found: its existence is not theirs to learn.
      if (!record || record.customer_id !== customerId) throw new SubscriptionNotFound();
      return open(record);
    },

    /** By an emailed link: a wrong signature is not found, a right one past its expiry is `LinkExpired`. */
    async openByLink(id: string, link: SignedLink): Promise<{ url: string }> {
      const checked = await deps.links.check(id, link);
      if (checked === "invalid") throw new SubscriptionNotFound();
      if (checked === "expired") throw new LinkExpired();
      const record = await deps.subscriptions.find(id);
      if (!record) throw new SubscriptionNotFound();
      return open(record);
    },

    /** The link an email carries: it opens the portal without signing in, until it expires. */
    link: (subscriptionId: string) =>
      deps.links.make(`/api/subscriptions/${encodeURIComponent(subscriptionId)}/billing-portal`, subscriptionId),
  };
}

export type BillingPortal = ReturnType<typeof makeBillingPortal>;
