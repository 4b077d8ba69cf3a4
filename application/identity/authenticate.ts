import type { Account } from "../../domain/identity/account.ts";
import { AccountDisabled, InvalidCredentials, SignInThrottled } from "../../domain/identity/errors.ts";
import { normalizeEmail } from "../../domain/identity/user.ts";
import type { Clock } from "../shared/clock-and-log.ts";
import type { PasswordHasher, SignInThrottle, UserRepository } from "./ports.ts";

export interface AuthenticateDeps {
  readonly users: UserRepository;
  readonly hasher: PasswordHasher;
  readonly signInThrottle: SignInThrottle;
  readonly clock: Clock;
}

export function makeAuthenticate(deps: AuthenticateDeps) {
  // Verifying against a real hash when the account is unknown keeps both paths equally slow,
  // so response time does not reveal which emails are registered.
  let decoyHash: Promise<string> | undefined;
  const decoy = () => {
    decoyHash ??= deps.hasher.hash(crypto.randomUUID());
    return decoyHash;
  };

  /** `client` is the address the attempt comes from, as the per-address rate limit sees it. */
  return async function authenticate(input: { email: string; password: string; client: string }): Promise<Account> {
    const email = normalizeEmail(input.email);
    // Counted whether or not the email has an account, so the wait tells a stranger nothing either.
    const attempt = await deps.signInThrottle.take(email, input.client, deps.clock());
    if (!attempt.allowed) throw new SignInThrottled(attempt.retryAfterSeconds);
    const stored = await deps.users.findByEmail(email);
    const matches = await deps.hasher.verify(input.password, stored?.passwordHash ?? (await decoy()));
    if (!stored || !matches) throw new InvalidCredentials();
    // Another address's own back-off stays: the owner signing in does not reset a guesser's wait.
    await deps.signInThrottle.clear(email, input.client);
    // Only after the password matched, so the answer tells a stranger nothing about the account.
    if (stored.disabled) throw new AccountDisabled();
    const { passwordHash: _, ...user } = stored;
    return user;
  };
}
