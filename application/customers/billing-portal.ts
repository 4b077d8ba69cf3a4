import type { PaymentGatewayName } from "../../domain/catalog/product.ts";
import type { SubscriptionRecord, SubscriptionRepository } from "../fulfillment/ports.ts";
import type { PaymentGateway } from "../payments/ports.ts";
import type { Clock } from "../shared/clock-and-log.ts";
import { BillingLinkExpired, SubscriptionChangeRefused, SubscriptionNotFound } from "./errors.ts";
import type { BillingLinkSigner } from "./ports.ts";

export interface BillingPortalDeps {
  readonly subscriptions: Pick<SubscriptionRepository, "find">;
  readonly gateways: Readonly<Record<PaymentGatewayName, Pick<PaymentGateway, "billingPortalUrl">>>;
  readonly signer: BillingLinkSigner;
  readonly clock: Clock;
  /** Where the gateway's portal leads back to: the account page. */
  readonly returnUrl: string;
  readonly publicBaseUrl: string;
  /** How long an emailed link works. */
  readonly linkTtlSeconds: number;
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

    /** By an emailed link: a wrong signature is not found, a right one past its expiry is `BillingLinkExpired`. */
    async openByLink(id: string, expiresAt: number, access: string): Promise<{ url: string }> {
      if (!Number.isSafeInteger(expiresAt) || !(await deps.signer.verify(id, expiresAt, access))) {
        throw new SubscriptionNotFound();
      }
      if (expiresAt * 1000 < deps.clock().getTime()) throw new BillingLinkExpired();
      const record = await deps.subscriptions.find(id);
      if (!record) throw new SubscriptionNotFound();
      return open(record);
    },

    /** The link an email carries: it opens the portal without signing in, until it expires. */
    async link(subscriptionId: string): Promise<string> {
      const expiresAt = Math.floor(deps.clock().getTime() / 1000) + deps.linkTtlSeconds;
      const url = new URL(
        `/api/subscriptions/${encodeURIComponent(subscriptionId)}/billing-portal`,
        deps.publicBaseUrl,
      );
      url.searchParams.set("expires", String(expiresAt));
      url.searchParams.set("access", await deps.signer.sign(subscriptionId, expiresAt));
      return url.href;
    },
  };
}

export type BillingPortal = ReturnType<typeof makeBillingPortal>;
