import type { BillingLinkSigner } from "../../application/customers/ports.ts";
import { constantTimeEqual, hmacSha256Hex } from "../../kit/hmac.ts";

/**
 * The signed part of an emailed link to a subscription's billing portal: an HMAC-SHA256 of the
 * subscription id and the link's expiry, keyed apart from the JWT, download and order-access
 * secrets by a context string. Rotating JWT_SECRET voids every such link.
 */
export function createBillingLinkSigner(secret: string): BillingLinkSigner {
  const key = `billing-portal-link:${secret}`;
  const sign = (subscriptionId: string, expiresAt: number) => hmacSha256Hex(key, `${subscriptionId}.${expiresAt}`);
  return {
    sign,
    async verify(subscriptionId, expiresAt, token) {
      return constantTimeEqual(token, await sign(subscriptionId, expiresAt));
    },
  };
}
