/**
 * Failed sign-ins of one account (its normalized email), known or not: the per-account half of the
 * brute-force defence, beside the per-address rate limit. Two counts stand for each account: one per
 * client address, which backs a single source off for up to 15 minutes, and one for the account from
 * every address, with more free attempts and a one-minute cap, which slows guessing spread over many
 * addresses without letting anyone keep the owner out for longer than that minute. Attempts are
 * counted before the password is checked (so concurrent guesses cannot all slip through one free
 * slot) and a success clears the count.
 */
export interface SignInAttempts {
  /** Attempts since the last success, or since the memory ran out. */
  readonly failures: number;
  /** No attempt is taken before this instant. */
  readonly lockedUntil: Date | null;
  readonly lastAttemptAt: Date;
}

/** How one count backs off: attempts that never wait, then 1 s, 2 s, 4 s ... up to the cap. */
export interface SignInBackoff {
  readonly freeAttempts: number;
  readonly maxBackoffSeconds: number;
}

/** One client address on one account: a customer who mistypes a few times notices nothing; a single source guessing waits up to 15 min. */
export const SIGN_IN_PER_ADDRESS: SignInBackoff = { freeAttempts: 5, maxBackoffSeconds: 15 * 60 };
/** One account from every address: guessing spread over many addresses gets about one try a minute, and the owner waits a minute at most. */
export const SIGN_IN_PER_ACCOUNT: SignInBackoff = { freeAttempts: 20, maxBackoffSeconds: 60 };
/** A day without an attempt forgets the failures before it. */
export const SIGN_IN_MEMORY_MS = 24 * 3_600_000;

/** The wait after the `attempts`-th attempt in a row: none at first, then 1 s, 2 s, 4 s ... capped. */
export function signInBackoffSeconds(attempts: number, backoff: SignInBackoff): number {
  if (attempts < backoff.freeAttempts) return 0;
  return Math.min(backoff.maxBackoffSeconds, 2 ** (attempts - backoff.freeAttempts));
}

export type SignInDecision =
  | { readonly allowed: true; readonly next: SignInAttempts }
  | { readonly allowed: false; readonly retryAfterSeconds: number };

/** Whether an attempt may be made now under one count, and if so the count that stands while its password is checked. */
export function decideSignInAttempt(
  current: SignInAttempts | undefined,
  now: Date,
  backoff: SignInBackoff,
): SignInDecision {
  const at = now.getTime();
  if (current?.lockedUntil && current.lockedUntil.getTime() > at) {
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((current.lockedUntil.getTime() - at) / 1000)) };
  }
  const remembered = current && at - current.lastAttemptAt.getTime() < SIGN_IN_MEMORY_MS ? current.failures : 0;
  const failures = remembered + 1;
  const wait = signInBackoffSeconds(failures, backoff);
  return {
    allowed: true,
    next: { failures, lockedUntil: wait > 0 ? new Date(at + wait * 1000) : null, lastAttemptAt: now },
  };
}

/** The two counts of one attempt: this address on the account, and the account from every address. */
export interface SignInCounts<T> {
  readonly address: T;
  readonly account: T;
}

export type SignInAttemptDecision =
  | { readonly allowed: true; readonly next: SignInCounts<SignInAttempts> }
  | { readonly allowed: false; readonly retryAfterSeconds: number };

/**
 * An attempt is taken only when both counts allow it, and then both count it; a refused attempt
 * counts nowhere, and waits until both would allow it.
 */
export function decideSignInAttempts(
  current: SignInCounts<SignInAttempts | undefined>,
  now: Date,
): SignInAttemptDecision {
  const address = decideSignInAttempt(current.address, now, SIGN_IN_PER_ADDRESS);
  const account = decideSignInAttempt(current.account, now, SIGN_IN_PER_ACCOUNT);
  if (address.allowed && account.allowed)
    return { allowed: true, next: { address: address.next, account: account.next } };
  const waits = [address, account].map((decision) => (decision.allowed ? 0 : decision.retryAfterSeconds));
  return { allowed: false, retryAfterSeconds: Math.max(...waits) };
}
