import type { Account } from "../../domain/identity/account.ts";
import { CurrentPasswordWrong, SignInThrottled, UserNotFound } from "../../domain/identity/errors.ts";
import type { Clock } from "../shared/clock-and-log.ts";
import type { PasswordHasher, SignInThrottle, StoredUser, UserRepository } from "./ports.ts";

export interface PasswordAgainDeps {
  readonly users: UserRepository;
  readonly hasher: PasswordHasher;
  readonly signInThrottle: SignInThrottle;
  readonly clock: Clock;
}

/**
 * The signed-in account's password asked again before a change of password or address. Each try
 * counts against the account's sign-ins, so a stolen session cannot guess the password any faster
 * than a stranger at the sign-in form; a right one clears the count as a sign-in does.
 */
export async function checkPasswordAgain(
  deps: PasswordAgainDeps,
  input: { readonly userId: string; readonly password: string; readonly client: string },
): Promise<Account> {
  const account = await deps.users.findById(input.userId);
  if (!account) throw new UserNotFound();
  const attempt = await deps.signInThrottle.take(account.email, input.client, deps.clock());
  if (!attempt.allowed) throw new SignInThrottled(attempt.retryAfterSeconds);
  const stored: StoredUser | undefined = await deps.users.findByEmail(account.email);
  if (!stored || !(await deps.hasher.verify(input.password, stored.passwordHash))) throw new CurrentPasswordWrong();
  await deps.signInThrottle.clear(account.email, input.client);
  return account;
}
