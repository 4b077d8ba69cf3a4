import { InvalidCredentials, normalizeEmail, type User } from "../../domain/identity/user.ts";
import type { PasswordHasher, UserRepository } from "./ports.ts";

export interface AuthenticateDeps {
  readonly users: UserRepository;
  readonly hasher: PasswordHasher;
}

export function makeAuthenticate(deps: AuthenticateDeps) {
  // Verifying against a real hash when the account is unknown keeps both paths equally slow,
  // so response time does not reveal which emails are registered.
  let decoyHash: Promise<string> | undefined;
  const decoy = () => {
    decoyHash ??= deps.hasher.hash(crypto.randomUUID());
    return decoyHash;
  };

  return async function authenticate(input: { email: string; password: string }): Promise<User> {
    const stored = await deps.users.findByEmail(normalizeEmail(input.email));
    const matches = await deps.hasher.verify(input.password, stored?.passwordHash ?? (await decoy()));
    if (!stored || !matches) throw new InvalidCredentials();
    const { passwordHash: _, ...user } = stored;
    return user;
  };
}
