import { type Env, integer } from "../../kit/env-parsers.ts";

export interface RateLimit {
  readonly burst: number;
  readonly perSecond: number;
}

/**
 * Per-client limits (a burst, then so many per second), each from its `<NAME>_RATE_LIMIT_*` pair. A
 * type, not an interface, so that it reads as the limiter's record of limits by name.
 */
export type RateLimits = {
  readonly auth: RateLimit;
  readonly licenses: RateLimit;
  readonly webhooks: RateLimit;
  /** Opening a checkout, per client address and, apart, per customer. */
  readonly checkout: RateLimit;
  /** Pricing a cart, per client address (the same settings as `checkout`, its own bucket). */
  readonly checkout_calculate: RateLimit;
};

const limit = (env: Env, name: string, burst: number, perSecond: number, max: number): RateLimit => ({
  burst: integer(env, `${name}_RATE_LIMIT_BURST`, burst, 1, max),
  perSecond: integer(env, `${name}_RATE_LIMIT_PER_SECOND`, perSecond, 1, max),
});

export function rateLimits(env: Env): RateLimits {
  // Each checkout opens a session at the gateway: a person needs a handful a minute, a script
  // hundreds. Ten at once, then one a second.
  const checkout = limit(env, "CHECKOUT", 10, 1, 10_000_000);
  return {
    auth: limit(env, "AUTH", 20, 2, 1_000_000),
    licenses: limit(env, "LICENSE", 60, 10, 1_000_000),
    webhooks: limit(env, "WEBHOOK", 2000, 500, 10_000_000),
    checkout,
    checkout_calculate: checkout,
  };
}
