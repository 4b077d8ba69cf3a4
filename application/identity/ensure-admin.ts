import { type User, validateRegistration } from "../../domain/identity/user.ts";
import type { PasswordHasher, UserRepository } from "./ports.ts";

export interface EnsureAdminDeps {
  readonly users: UserRepository;
  readonly hasher: PasswordHasher;
}

/**
 * Makes the configured admin account exist, enabled, with the configured password (run at start):
 * the way back in when no working admin is left.
 */
export function makeEnsureAdmin(deps: EnsureAdminDeps) {
  return async function ensureAdmin(input: { email: string; password: string }): Promise<User> {
    const admin = validateRegistration({ ...input, name: "Administrator" });
    const existing = await deps.users.findByEmail(admin.email);
    const passwordHash =
      existing && (await deps.hasher.verify(admin.password, existing.passwordHash))
        ? existing.passwordHash
        : await deps.hasher.hash(admin.password);
    return deps.users.upsert({
      email: admin.email,
      name: existing?.name ?? admin.name,
      role: "admin",
      passwordHash,
    });
  };
}
