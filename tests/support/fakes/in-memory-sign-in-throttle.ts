import type { SignInThrottle } from "../../../application/identity/ports.ts";
import { decideSignInAttempts, type SignInAttempts } from "../../../domain/identity/sign-in-throttle.ts";

/** The account-wide count's key in `attempts`; an address's count is `email|address`. */
export const accountWide = (email: string) => `${email}|`;

/** The counts in a map keyed `email|address` (`email|` for the account from every address), decided by the same rule as the PostgreSQL one. */
export function createInMemorySignInThrottle(): SignInThrottle & { readonly attempts: Map<string, SignInAttempts> } {
  const attempts = new Map<string, SignInAttempts>();
  return {
    attempts,
    async take(email, client, now) {
      const keys = { address: `${email}|${client}`, account: accountWide(email) };
      const decision = decideSignInAttempts(
        { address: attempts.get(keys.address), account: attempts.get(keys.account) },
        now,
      );
      if (decision.allowed) {
        attempts.set(keys.address, decision.next.address);
        attempts.set(keys.account, decision.next.account);
      }
      return decision;
    },
    async clear(email, client) {
      for (const key of [...attempts.keys()]) {
        if (
          client === undefined
            ? key.startsWith(`${email}|`)
            : key === `${email}|${client}` || key === accountWide(email)
        )
          attempts.delete(key);
      }
    },
  };
}
