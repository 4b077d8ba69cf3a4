import { type Env, integer } from "../../kit/env-parsers.ts";

/**
 * Each checkout opens a session at the gateway: a person needs a handful a minute, a script
 * hundreds. Ten at once, then one a second.
 */
export function checkoutRateLimit(env: Env): { readonly burst: number; readonly perSecond: number } {
  return {
    burst: integer(env, "CHECKOUT_RATE_LIMIT_BURST", 10, 1, 1_000_000),
    perSecond: integer(env, "CHECKOUT_RATE_LIMIT_PER_SECOND", 1, 1, 1_000_000),
  };
}
