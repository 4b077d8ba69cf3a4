import { DomainError } from "../shared/domain-error.ts";

/**
 * Failed sign-ins of one account (its normalized email), known or not: the per-account half of the
 * brute-force defence, beside the per-address rate limit. Attempts are counted before the password
 * is checked (so concurrent guesses cannot all slip through one free slot) and a success clears
 * the count.
 */
export interface SignInAttempts {
  /** Attempts since the last success, or since the memory ran out. */
  readonly failures: number;
  /** No attempt is taken before this instant. */
  readonly lockedUntil: Date | null;
  readonly lastAttemptAt: Date;
}

/** Attempts that never wait: a customer who mistypes a few times notices nothing. */
export const SIGN_IN_FREE_ATTEMPTS = 5;
/** The longest wait: an attacker can hold an account back for this long at a time, never longer. */
export const SIGN_IN_MAX_BACKOFF_SECONDS = 15 * 60;
/** A day without an attempt forgets the failures before it. */
export const SIGN_IN_MEMORY_MS = 24 * 3_600_000;

/** The wait after the `attempts`-th attempt in a row: none at first, then 1 s, 2 s, 4 s ... capped at 15 min. */
export function signInBackoffSeconds(attempts: number): number {
  if (attempts < SIGN_IN_FREE_ATTEMPTS) return 0;
  return Math.min(SIGN_IN_MAX_BACKOFF_SECONDS, 2 ** (attempts - SIGN_IN_FREE_ATTEMPTS));
}

export type SignInDecision =
  | { readonly allowed: true; readonly next: SignInAttempts }
  | { readonly allowed: false; readonly retryAfterSeconds: number };

/** Whether an attempt may be made now, and if so the count that stands while its password is checked. */
export function decideSignInAttempt(current: SignInAttempts | undefined, now: Date): SignInDecision {
  const at = now.getTime();
  if (current?.lockedUntil && current.lockedUntil.getTime() > at) {
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((current.lockedUntil.getTime() - at) / 1000)) };
  }
  const remembered = current && at - current.lastAttemptAt.getTime() < SIGN_IN_MEMORY_MS ? current.failures : 0;
  const failures = remembered + 1;
  const wait = signInBackoffSeconds(failures);
  return {
    allowed: true,
    next: { failures, lockedUntil: wait > 0 ? new Date(at + wait * 1000) : null, lastAttemptAt: now },
  };
}

/** Too many failed sign-ins for this account just now: wait `retryAfterSeconds`. */
export class SignInThrottled extends DomainError {
  readonly code = "SIGN_IN_THROTTLED";
  readonly category = "rate_limited";

  constructor(readonly retryAfterSeconds: number) {
    super(`Too many failed sign-ins for this account; retry after ${retryAfterSeconds} s.`);
  }
}
