import type { Account } from "../../domain/identity/account.ts";
import { EmailAlreadyRegistered } from "../../domain/identity/errors.ts";
import { type Registration, validateRegistration } from "../../domain/identity/user.ts";
import type { JobScheduler } from "../shared/jobs.ts";
import { emailLinkJob } from "./jobs.ts";
import type { CommonPasswords, PasswordHasher, UserRepository } from "./ports.ts";

export interface RegisterCustomerDeps {
  readonly users: UserRepository;
  readonly hasher: PasswordHasher;
  readonly commonPasswords: CommonPasswords;
  readonly jobs: JobScheduler;
}

/** Creates a customer account and sends its address a verification link. */
export function makeRegisterCustomer(deps: RegisterCustomerDeps) {
  return async function registerCustomer(input: Registration): Promise<Account> {
    const registration = validateRegistration(input, await deps.commonPasswords.includes(input.password));
    const passwordHash = await deps.hasher.hash(registration.password);
    const user = await deps.users.insert({
      email: registration.email,
      name: registration.name,
      role: "customer",
      passwordHash,
    });
    if (!user) throw new EmailAlreadyRegistered();
    await deps.jobs.enqueue(emailLinkJob({ user_id: user.id, email: user.email, purpose: "verify" }));
    return user;
  };
}
