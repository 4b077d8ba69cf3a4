import { UserNotFound } from "../../domain/identity/errors.ts";
import type { ChangeSignal } from "../shared/ports.ts";
import { ACCOUNTS_TOPIC } from "./account-states.ts";
import type { UserRepository } from "./ports.ts";

export interface LogOutEverywhereDeps {
  readonly users: UserRepository;
  readonly changes: ChangeSignal;
}

/** Voids every token of the account issued so far, the caller's own included. */
export function makeLogOutEverywhere(deps: LogOutEverywhereDeps) {
  return async function logOutEverywhere(userId: string): Promise<void> {
    if (!(await deps.users.revokeTokens(userId))) throw new UserNotFound();
    await deps.changes.publish(ACCOUNTS_TOPIC);
  };
}
