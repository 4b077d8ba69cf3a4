import type { KeptSession } from "../../domain/identity/account.ts";
import { UserNotFound } from "../../domain/identity/errors.ts";
import { passwordFieldError } from "../../domain/identity/password-policy.ts";
import { ValidationFailed } from "../../domain/shared/errors.ts";
import type { ChangeSignal } from "../shared/ports.ts";
import { ACCOUNTS_TOPIC } from "./account-states.ts";
import { checkPasswordAgain, type PasswordAgainDeps } from "./password-again.ts";
import type { CommonPasswords } from "./ports.ts";

export interface ChangePasswordDeps extends PasswordAgainDeps {
  readonly commonPasswords: CommonPasswords;
  readonly changes: ChangeSignal;
}

/**
 * The signed-in account sets a new password, giving the current one. Every other session ends on
 * every instance; the session that asked (`session`) stays signed in.
 */
export function makeChangePassword(deps: ChangePasswordDeps) {
  return async function changePassword(input: {
    readonly userId: string;
    /** The asking session, kept; a token without a session id cannot be kept and ends with the rest. */
    readonly session: KeptSession | undefined;
    readonly currentPassword: string;
    readonly newPassword: string;
    readonly client: string;
  }): Promise<void> {
    const error = passwordFieldError(
      "/new_password",
      input.newPassword,
      await deps.commonPasswords.includes(input.newPassword),
    );
    if (error) throw new ValidationFailed([error]);
    await checkPasswordAgain(deps, { userId: input.userId, password: input.currentPassword, client: input.client });
    const passwordHash = await deps.hasher.hash(input.newPassword);
    if (!(await deps.users.changePassword(input.userId, passwordHash, input.session))) throw new UserNotFound();
    await deps.changes.publish(ACCOUNTS_TOPIC);
  };
}
