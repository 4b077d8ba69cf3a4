import type { AccessChange, Account, AccountState } from "../../domain/identity/account.ts";
import type { SignInAttemptDecision } from "../../domain/identity/sign-in-throttle.ts";
import type { Role } from "../../domain/identity/user.ts";
import type { AuditEntry } from "../audit/ports.ts";
import type { Page, PageRequest } from "../shared/ports.ts";

export interface NewUser {
  readonly email: string;
  readonly name: string;
  readonly role: Role;
  readonly passwordHash: string;
}

export interface StoredUser extends Account {
  readonly passwordHash: string;
}

export interface UserRepository {
  findByEmail(email: string): Promise<StoredUser | undefined>;
  findById(id: string): Promise<Account | undefined>;
  /** Returns undefined when the email is taken (the unique constraint decides, not a prior read). */
  insert(user: NewUser): Promise<Account | undefined>;
  /** Creates the account, or updates its name, role and password and enables it when the email exists. */
  upsert(user: NewUser): Promise<Account>;
  /** Newest first. */
  list(page: PageRequest): Promise<Page<Account>>;
  /**
   * Disabling also raises the token version. Undefined when there is no such user. With `audit`,
   * its entry is written in the transaction of the change (and only when there was one).
   */
  changeAccess(id: string, change: AccessChange, audit?: AuditEntry): Promise<Account | undefined>;
  /** Raises the token version, voiding every token issued so far; false when there is no such user. */
  revokeTokens(id: string): Promise<boolean>;
}

/** The auth guard's source of account state; may answer from a cache of bounded age. */
export interface AccountStates {
  find(userId: string): Promise<AccountState | undefined>;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, hash: string): Promise<boolean>;
}

/** Sign-in attempts per account (normalized email) and per client address on it, shared by every instance. */
export interface SignInThrottle {
  /** Counts an attempt from `client` before its password is checked, or says how long to wait; concurrent attempts queue. */
  take(email: string, client: string, now: Date): Promise<SignInAttemptDecision>;
  /**
   * Forgets the account's attempts: from every address (a password reset), or, given `client`,
   * the account-wide count and that address's own (a successful sign-in from it).
   */
  clear(email: string, client?: string): Promise<void>;
}
