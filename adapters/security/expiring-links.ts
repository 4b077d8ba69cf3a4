import type { ExpiringLinkSigner } from "../../application/customers/ports.ts";
import { constantTimeEqual, hmacSha256Hex } from "../../kit/hmac.ts";

/**
 * The signed part of an emailed link that works without signing in until it expires (a billing
 * portal, an invoice): an HMAC-SHA256 of what the link opens and its expiry, keyed apart from the
 * JWT, download, order-access and every other purpose's links by a context string. Rotating
 * JWT_SECRET voids every such link.
 */
export function createExpiringLinkSigner(secret: string, purpose: string): ExpiringLinkSigner {
  const key = `${purpose}-link:${secret}`;
  const sign = (subject: string, expiresAt: number) => hmacSha256Hex(key, `${subject}.${expiresAt}`);
  return {
    sign,
    async verify(subject, expiresAt, token) {
      return Number.isSafeInteger(expiresAt) && constantTimeEqual(token, await sign(subject, expiresAt));
    },
  };
}
