import type { AccountState } from "../../domain/identity/account.ts";
import type { ChangeSignal } from "../shared/ports.ts";
import type { AccountStates, UserRepository } from "./ports.ts";

/** Published after any change to a role, a disabled flag, a token version or a kept session. */
export const ACCOUNTS_TOPIC = "accounts";

export const ACCOUNT_STATE_MAX_AGE_MS = 5_000;
export const ACCOUNT_STATE_MAX_ENTRIES = 10_000;

export interface AccountStatesDeps {
  readonly users: Pick<UserRepository, "findById">;
  readonly changes: ChangeSignal;
  /** Monotonic milliseconds. */
  now(): number;
  readonly maxAgeMs?: number;
  readonly maxEntries?: number;
}

interface Entry {
  readonly state: AccountState | undefined;
  readonly expiresAt: number;
}

/**
 * Account state for the auth guard without a query per request. An answer is never older than
 * `maxAgeMs`, counted from when its query was sent, so a change made on another instance takes
 * effect within that bound even if its signal is lost; the signal only makes it immediate.
 * Unknown users are cached too, so a deleted account's tokens cost no query either.
 */
export function makeAccountStates(deps: AccountStatesDeps): AccountStates {
  const maxAgeMs = deps.maxAgeMs ?? ACCOUNT_STATE_MAX_AGE_MS;
  const maxEntries = deps.maxEntries ?? ACCOUNT_STATE_MAX_ENTRIES;
  const entries = new Map<string, Entry>();
  const loading = new Map<string, Promise<AccountState | undefined>>();
  // A query sent before a change may answer after it: its result must not be cached.
  let generation = 0;
  deps.changes.subscribe(ACCOUNTS_TOPIC, () => {
    generation += 1;
    entries.clear();
    loading.clear();
  });

  async function load(userId: string): Promise<AccountState | undefined> {
    const sentAt = deps.now();
    const sentIn = generation;
    const account = await deps.users.findById(userId);
    const state: AccountState | undefined = account && {
      role: account.role,
      disabled: account.disabled,
      tokenVersion: account.tokenVersion,
      ...(account.keptSession ? { keptSession: account.keptSession } : {}),
    };
    if (sentIn === generation) {
      entries.delete(userId);
      // Map order is insertion order: the first key is the oldest entry.
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(userId, { state, expiresAt: sentAt + maxAgeMs });
    }
    return state;
  }

  return {
    find(userId) {
      const entry = entries.get(userId);
      if (entry && entry.expiresAt > deps.now()) return Promise.resolve(entry.state);
      const pending = loading.get(userId);
      if (pending) return pending;
      const started = load(userId).finally(() => {
        if (loading.get(userId) === started) loading.delete(userId);
      });
      loading.set(userId, started);
      return started;
    },
  };
}
