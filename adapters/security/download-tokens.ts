import { constantTimeEqual, hmacSha256Hex } from "../../kit/hmac.ts";

export type DownloadTokenCheck =
  | { readonly ok: true; readonly entitlement_id: string; readonly customer_id: string }
  | { readonly ok: false; readonly reason: "invalid" | "expired" };

/**
 * Expiring signed download links: `<base64url {e, c, x}>.<hex HMAC>` with the entitlement, the
 * customer and the expiry. Keyed apart from the JWT secret by a context string.
 */
export function createDownloadTokens(deps: { secret: string; ttlSeconds: number; now?: () => number }) {
  const now = deps.now ?? Date.now;
  const key = `downloads:${deps.secret}`;
  return {
    async issue(entitlementId: string, customerId: string): Promise<string> {
      const body = Buffer.from(
        JSON.stringify({ e: entitlementId, c: customerId, x: Math.floor(now() / 1000) + deps.ttlSeconds }),
      ).toString("base64url");
      return `${body}.${await hmacSha256Hex(key, body)}`;
    },
    async verify(token: string): Promise<DownloadTokenCheck> {
      const [body, signature, extra] = token.split(".");
      if (!body || !signature || extra !== undefined) return { ok: false, reason: "invalid" };
      if (!constantTimeEqual(signature, await hmacSha256Hex(key, body))) return { ok: false, reason: "invalid" };
      try {
        const claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as {
          e?: unknown;
          c?: unknown;
          x?: unknown;
        };
        if (typeof claims.e !== "string" || typeof claims.c !== "string" || typeof claims.x !== "number") {
          return { ok: false, reason: "invalid" };
        }
        if (claims.x * 1000 <= now()) return { ok: false, reason: "expired" };
        return { ok: true, entitlement_id: claims.e, customer_id: claims.c };
      } catch {
        return { ok: false, reason: "invalid" };
      }
    },
  };
}

/** Signed download links under `baseUrl`: what the customer is given, and what the download route checks. */
export function createDownloadLinks(deps: { secret: string; ttlSeconds: number; baseUrl: string }) {
  const tokens = createDownloadTokens(deps);
  return {
    link: async (entitlementId: string, customerId: string) =>
      `${deps.baseUrl}/api/downloads/${await tokens.issue(entitlementId, customerId)}`,
    verify: tokens.verify,
  };
}
