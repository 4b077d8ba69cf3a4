import { normalizeEmail } from "../../domain/identity/user.ts";
import type { SignInThrottle } from "./ports.ts";

/**
 * Lets an account sign in again at once, whatever its failed attempts: the hook a password reset
 * calls once the new password is set (the start-time reset of the configured admin does).
 */
export function makeClearSignInAttempts(deps: { readonly signInThrottle: SignInThrottle }) {
  return (email: string): Promise<void> => deps.signInThrottle.clear(normalizeEmail(email));
}
