import { AdminSelfLockout } from "./errors.ts";
import type { Role, User } from "./user.ts";

/** What decides, on every request, what a token may still do: the database holds it, not the token. */
export interface AccountState {
  readonly role: Role;
  readonly disabled: boolean;
  /** Tokens carry the version they were issued under; raising it voids them all. */
  readonly tokenVersion: number;
  /**
   * The one session a password change keeps: its tokens carry this session id and this older
   * version. Raising the version any other way (sign out everywhere, a reset, disabling) drops it.
   */
  readonly keptSession?: KeptSession;
}

export interface KeptSession {
  readonly id: string;
  readonly version: number;
}

export interface Account extends User, AccountState {}

export interface AccessChange {
  readonly role?: Role;
  readonly disabled?: boolean;
}

export type SessionCheck =
  | { readonly outcome: "valid"; readonly role: Role }
  | { readonly outcome: "disabled" }
  | { readonly outcome: "revoked" };

/**
 * A token stands while its account exists, is enabled and still has the token's version, or is of
 * the session a password change kept. Disabled wins over a stale version (disabling raises it) so
 * the holder learns that signing in again will not help.
 */
export function checkSession(
  account: AccountState | undefined,
  tokenVersion: number,
  sessionId: string | undefined,
): SessionCheck {
  if (!account) return { outcome: "revoked" };
  if (account.disabled) return { outcome: "disabled" };
  const kept =
    account.keptSession !== undefined &&
    sessionId === account.keptSession.id &&
    tokenVersion === account.keptSession.version;
  if (account.tokenVersion !== tokenVersion && !kept) return { outcome: "revoked" };
  return { outcome: "valid", role: account.role };
}

/** Refuses an admin locking themselves out: with no admin left, only a restart with ADMIN_EMAIL recovers. */
export function checkAccessChange(actorId: string, targetId: string, change: AccessChange): void {
  const losesAccess = (change.role !== undefined && change.role !== "admin") || change.disabled === true;
  if (actorId === targetId && losesAccess) throw new AdminSelfLockout();
}
