import type { SignInThrottle } from "../../../application/identity/ports.ts";
import { decideSignInAttempt, type SignInAttempts } from "../../../domain/identity/sign-in-throttle.ts";

/** The per-account count in a map, decided by the same rule as the PostgreSQL one. */
export function createInMemorySignInThrottle(): SignInThrottle & { readonly attempts: Map<string, SignInAttempts> } {
  const attempts = new Map<string, SignInAttempts>();
  return {
    attempts,
    async take(email, now) {
      const decision = decideSignInAttempt(attempts.get(email), now);
      if (decision.allowed) attempts.set(email, decision.next);
      return decision;
    },
    async clear(email) {
      attempts.delete(email);
    },
  };
}
