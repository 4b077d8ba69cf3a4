import type { DownloadLinks } from "../../../application/customers/ports.ts";

/**
 * Download links as opaque random tokens remembered in memory: a token this fake never issued is
 * invalid, and `expire` makes every link issued so far expired.
 */
export function createInMemoryDownloadLinks(): DownloadLinks & {
  readonly issued: { entitlement_id: string; customer_id: string; url: string }[];
  expire(): void;
} {
  const tokens = new Map<string, { entitlement_id: string; customer_id: string; expired: boolean }>();
  const issued: { entitlement_id: string; customer_id: string; url: string }[] = [];
  return {
    issued,
    async link(entitlementId, customerId) {
      const token = crypto.randomUUID();
      tokens.set(token, { entitlement_id: entitlementId, customer_id: customerId, expired: false });
      const url = `https://shop.test/api/downloads/${token}`;
      issued.push({ entitlement_id: entitlementId, customer_id: customerId, url });
      return url;
    },
    async verify(token) {
      const found = tokens.get(token);
      if (!found) return { ok: false, reason: "invalid" };
      if (found.expired) return { ok: false, reason: "expired" };
      return { ok: true, entitlement_id: found.entitlement_id, customer_id: found.customer_id };
    },
    expire() {
      for (const [token, found] of tokens) tokens.set(token, { ...found, expired: true });
    },
  };
}
