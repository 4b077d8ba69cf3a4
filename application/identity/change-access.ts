import { type AccessChange, type Account, checkAccessChange } from "../../domain/identity/account.ts";
import { GuestCannotBeAdmin, UserNotFound } from "../../domain/identity/errors.ts";
import type { ChangeSignal } from "../shared/ports.ts";
import { ACCOUNTS_TOPIC } from "./account-states.ts";
import type { UserRepository } from "./ports.ts";

export interface ChangeAccessDeps {
  readonly users: UserRepository;
  readonly changes: ChangeSignal;
}

/** An admin promotes, demotes, disables or enables another account; a guest record is never promoted. */
export function makeChangeAccess(deps: ChangeAccessDeps) {
  return async function changeAccess(actorId: string, userId: string, change: AccessChange): Promise<Account> {
    checkAccessChange(actorId, userId, change);
    if (change.role === "admin" && (await deps.users.findById(userId))?.guest) throw new GuestCannotBeAdmin();
    const account = await deps.users.changeAccess(userId, change, {
      actor_id: actorId,
      action: "user.update",
      target_type: "user",
      target_id: userId,
      summary: { ...change },
    });
    if (!account) throw new UserNotFound();
    await deps.changes.publish(ACCOUNTS_TOPIC);
    return account;
  };
}
