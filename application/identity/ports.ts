import type { AccessChange, Account, AccountState, KeptSession } from "../../domain/identity/account.ts";
import type { ApiKey, ApiKeyScope } from "../../domain/identity/api-key.ts";
import type { SignInAttemptDecision } from "../../domain/identity/sign-in-throttle.ts";
import type { Role } from "../../domain/identity/user.ts";
import type { AuditEntry } from "../audit/ports.ts";
import type { JobScheduler } from "../shared/jobs.ts";
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
  /**
   * Creates the account, or updates its name, role and password and enables it when the email
   * exists. The address counts as verified: the operator configured it.
   */
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
  /**
   * Sets the password hash and raises the token version, keeping `keep`'s tokens valid (the
   * session that changed it) when given; false when there is no such user.
   */
  changePassword(id: string, passwordHash: string, keep: KeptSession | undefined): Promise<boolean>;
}

/** The auth guard's source of account state; may answer from a cache of bounded age. */
export interface AccountStates {
  find(userId: string): Promise<AccountState | undefined>;
}

/** The passwords too common to choose (NIST SP 800-63B 5.1.1.2), compared without regard to case. */
export interface CommonPasswords {
  includes(password: string): Promise<boolean>;
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

/** A password reset link's token, as stored: its SHA-256 only. */
export interface IssuedPasswordReset {
  readonly userId: string;
  readonly tokenHash: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** An account whose password a reset link set. */
export interface PasswordResetDone {
  readonly userId: string;
  readonly email: string;
}

/** Password reset links, each kept as its token's hash. */
export interface PasswordResets {
  issue(reset: IssuedPasswordReset): Promise<void>;
  /** How many links the account was sent since `since`: the cap on reset emails per account. */
  issuedSince(userId: string, since: Date): Promise<number>;
  /**
   * Spends the link whose token hashes to `tokenHash`, when it is unused and still valid at `now`:
   * in one transaction it marks it and every other open link of the account used, sets the
   * account's password hash and raises its token version (every session ends). Undefined for an
   * unknown, used or expired link; of two racing for one link, one wins.
   */
  redeem(tokenHash: string, passwordHash: string, now: Date): Promise<PasswordResetDone | undefined>;
}

export type EmailLinkPurpose = "verify" | "change" | "claim";

/**
 * A link that proves an address, as stored: its token's SHA-256 only. `verify` confirms the
 * account's own address; `change` moves the account to `email`.
 */
export interface IssuedEmailLink {
  readonly userId: string;
  readonly email: string;
  readonly purpose: EmailLinkPurpose;
  readonly tokenHash: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** What opening a link did: the address verified, or the account moved to it (and so verified). */
export type EmailLinkSpent =
  | { readonly outcome: "verified"; readonly userId: string; readonly email: string }
  | {
      readonly outcome: "changed";
      readonly userId: string;
      readonly email: string;
      readonly previousEmail: string;
      readonly name: string;
    };

export type EmailLinkRedeemed =
  | EmailLinkSpent
  /** Unknown, used, expired, or a `verify` link for an address the account no longer has. */
  | { readonly outcome: "invalid" }
  /** A `change` link to an address another account took meanwhile; the link stays unspent. */
  | { readonly outcome: "taken" };

/** Email verification and change-of-address links, each kept as its token's hash. */
export interface EmailLinks {
  issue(link: IssuedEmailLink): Promise<void>;
  /** How many links of any purpose the account was sent since `since`: the cap on such emails. */
  issuedSince(userId: string, since: Date): Promise<number>;
  /**
   * Spends the link whose token hashes to `tokenHash`, when it is unused and valid at `now`. A
   * `verify` link marks the address verified; a `change` link sets the account's address to its
   * own, verified, and spends every other open link of the account. `then` runs in the same
   * transaction, with jobs enqueued in it, so what follows the change commits with it.
   */
  redeem(
    tokenHash: string,
    now: Date,
    then: (spent: EmailLinkSpent, jobs: JobScheduler) => Promise<void>,
  ): Promise<EmailLinkRedeemed>;
}

/** A key as created: its secret's hash and shown prefix, never the secret. */
export type GuestClaimOutcome =
  | { readonly outcome: "claimed"; readonly account: Account }
  | { readonly outcome: "invalid" }
  | { readonly outcome: "disabled" }
  /** An admin's account has the address: the link sets no password there. */
  | { readonly outcome: "taken" };

/** Guest records turned into accounts by the `claim` links their emails carry. */
export interface GuestClaims {
  /**
   * Spends the claim link whose token hashes to `tokenHash`, when unused and valid at `now`, and
   * sets the password: on the guest record, which becomes a verified account (named `name` when
   * given), or, when an account has the address, on that account, which the guest record is folded
   * into. Every other session of the account ends. `then` runs in the same transaction.
   */
  claim(
    tokenHash: string,
    passwordHash: string,
    name: string | undefined,
    now: Date,
    then: (account: Account, jobs: JobScheduler) => Promise<void>,
  ): Promise<GuestClaimOutcome>;
}

export interface NewApiKey {
  readonly name: string;
  readonly prefix: string;
  readonly secretHash: string;
  readonly scopes: readonly ApiKeyScope[];
  readonly createdBy: string;
  readonly expiresAt: Date | null;
}

/** API keys, each kept as its secret's SHA-256 (a 256-bit random secret needs no slow hash). */
export interface ApiKeys {
  /** Stores the key and, in the same transaction, the audit entry `audit` makes of it. */
  create(key: NewApiKey, audit: (created: ApiKey) => AuditEntry): Promise<ApiKey>;
  /** Newest first, revoked ones included. */
  list(page: PageRequest): Promise<Page<ApiKey>>;
  /**
   * Revokes the key at `at` (a revoked one keeps its first time), with the audit entry in the
   * same transaction; undefined when there is no such key.
   */
  revoke(id: string, at: Date, audit: AuditEntry): Promise<ApiKey | undefined>;
  findBySecretHash(secretHash: string): Promise<ApiKey | undefined>;
  /** Notes that the key was used at `at`. */
  touch(id: string, at: Date): Promise<void>;
}
