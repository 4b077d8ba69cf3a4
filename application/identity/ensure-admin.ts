import { type User, validateRegistration } from "../../domain/identity/user.ts";
import { makeClearSignInAttempts } from "./clear-sign-in-attempts.ts";
import type { CommonPasswords, PasswordHasher, SignInThrottle, UserRepository } from "./ports.ts";

export interface EnsureAdminDeps {
  readonly users: UserRepository;
  readonly hasher: PasswordHasher;
  readonly commonPasswords: CommonPasswords;
  readonly signInThrottle: SignInThrottle;
}

/**
 * Makes the configured admin account exist, enabled, with the configured password (run at start):
 * the way back in when no working admin is left, so it also clears the account's failed sign-ins.
 */
export function makeEnsureAdmin(deps: EnsureAdminDeps) {
  const clearSignInAttempts = makeClearSignInAttempts(deps);
  return async function ensureAdmin(input: { email: string; password: string }): Promise<User> {
    const admin = validateRegistration(
      { ...input, name: "Administrator" },
      await deps.commonPasswords.includes(input.password),
    );
    const existing = await deps.users.findByEmail(admin.email);
    const passwordHash =
      existing && (await deps.hasher.verify(admin.password, existing.passwordHash))
        ? existing.passwordHash
        : await deps.hasher.hash(admin.password);
    const ensured = await deps.users.upsert({
      email: admin.email,
      name: existing?.name ?? admin.name,
      role: "admin",
      passwordHash,
    });
    await clearSignInAttempts(admin.email);
    return ensured;
  };
}
