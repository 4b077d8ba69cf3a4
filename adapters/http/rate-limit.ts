import { Elysia } from "elysia";
import { problem, problemResponse } from "../../kit/problem.ts";

export interface RateLimit {
  /** Requests a client may make in a burst. */
  readonly burst: number;
  /** Requests per second refilled after the burst. */
  readonly perSecond: number;
}

interface Bucket {
  tokens: number;
  updated: number;
}

/** Token buckets by key, in memory; `take` answers 0 when a token was left, else the seconds until one is. */
export function createTokenBuckets(now: () => number = Date.now) {
  const buckets = new Map<string, Bucket>();
  let sweptAt = now();

  function take(key: string, limit: RateLimit): number {
    const at = now();
    if (at - sweptAt > 60_000) {
      // Buckets idle long enough to be full again carry no information.
      for (const [k, b] of buckets) if (at - b.updated > 60_000) buckets.delete(k);
      sweptAt = at;
    }
    const bucket = buckets.get(key) ?? { tokens: limit.burst, updated: at };
    bucket.tokens = Math.min(limit.burst, bucket.tokens + ((at - bucket.updated) / 1000) * limit.perSecond);
    bucket.updated = at;
    buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - bucket.tokens) / limit.perSecond);
  }

  return { take };
}

export type TokenBuckets = ReturnType<typeof createTokenBuckets>;

/** The 429 a limited client gets, with the seconds to wait. */
export function rateLimitedResponse(retryAfter: number): Response {
  return problemResponse(problem(429, "RATE_LIMITED", `Too many requests; retry after ${retryAfter} s.`), {
    "retry-after": String(retryAfter),
  });
}

/**
 * The address a request comes from: the connection's, or the first `X-Forwarded-For` hop when the
 * deployment says a trusted proxy sets it; never empty.
 */
export function clientAddress(
  request: Request,
  server: { requestIP(request: Request): { address: string } | null } | null | undefined,
  trustProxy: boolean,
): string {
  const forwarded = trustProxy ? request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() : undefined;
  return forwarded || server?.requestIP(request)?.address || "unknown";
}

/**
 * A token bucket per client and route group, in memory (each instance limits on its own, which
 * bounds the total at instances x limit). The client is the connection's address, or the first
 * `X-Forwarded-For` hop when the deployment says a trusted proxy sets it. `buckets` may be shared
 * with limits keyed by something other than the address (a customer, say).
 */
export function createRateLimiter(options: {
  readonly limits: Readonly<Record<string, RateLimit>>;
  readonly groupOf: (path: string) => string | undefined;
  readonly trustProxy: boolean;
  readonly now?: () => number;
  readonly buckets?: TokenBuckets;
}) {
  const { take } = options.buckets ?? createTokenBuckets(options.now);

  return new Elysia({ name: "rate-limit" }).onRequest(({ request, server }) => {
    const path = new URL(request.url).pathname;
    const group = options.groupOf(path);
    const limit = group ? options.limits[group] : undefined;
    if (!group || !limit) return;
    const client = clientAddress(request, server, options.trustProxy);
    const retryAfter = take(`${group}|${client}`, limit);
    if (retryAfter === 0) return;
    return rateLimitedResponse(retryAfter);
  });
}

/**
 * Which paths are limited, by group: sign-in, password resets, emailed links and the changes that
 * ask for the password again; public license checks and downloads, gateway webhooks and checkout.
 */
export function rateLimitGroup(rawPath: string): string | undefined {
  // The router takes `/api/auth/login/` for `/api/auth/login`: so must the limits.
  const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, "") : rawPath;
  if (path === "/api/auth/login" || path === "/api/auth/register") return "auth";
  if (path === "/api/auth/password-reset" || path === "/api/auth/password-reset/confirm") return "auth";
  if (path === "/api/auth/verify-email" || path === "/api/auth/verify-email/confirm") return "auth";
  if (path === "/api/me/password" || path === "/api/me/email" || path === "/api/auth/claim") return "auth";
  if (path === "/api/licenses/activate" || path === "/api/licenses/validate") return "licenses";
  if (path === "/api/licenses/deactivate" || path === "/api/licenses/heartbeat") return "licenses";
  if (path === "/api/licenses/checkout") return "licenses";
  // A signed link cannot be guessed, yet every attempt still costs a signature check and a lookup.
  if (path.startsWith("/api/downloads/")) return "licenses";
  if (path.startsWith("/api/webhooks/")) return "webhooks";
  // Each checkout opens a session at the gateway; the customer is limited apart, by the route.
  if (path === "/api/checkout/create" || /^\/products\/[^/]+\/buy$/.test(path)) return "checkout";
  if (path === "/api/checkout/calculate") return "checkout_calculate";
  return undefined;
}
