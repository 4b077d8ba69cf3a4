/**
 * The circuit breaker of one gateway in one environment: it opens after `failures` transient
 * failures in a row, stays open for `cooldownMs`, then lets one trial call through (half-open).
 * The trial's success closes it; its failure opens it again for another cool-down.
 */
export interface BreakerRecord {
  readonly consecutive_failures: number;
  /** When it last opened; null while closed. */
  readonly opened_at: Date | null;
  /** When the half-open trial call was let through; null when none is under way. */
  readonly trial_started_at: Date | null;
}

export interface BreakerPolicy {
  readonly failures: number;
  readonly cooldownMs: number;
  /**
   * How long a trial call holds the half-open breaker. Longer than any call may take, so a second
   * trial starts only when the first one's caller is gone (an instance that stopped mid-call).
   */
  readonly trialLeaseMs: number;
}

export type BreakerState = "closed" | "open" | "half_open";

export const CLOSED_BREAKER: BreakerRecord = { consecutive_failures: 0, opened_at: null, trial_started_at: null };

export function breakerState(record: BreakerRecord, policy: BreakerPolicy, now: Date): BreakerState {
  if (record.opened_at === null) return "closed";
  return now.getTime() < record.opened_at.getTime() + policy.cooldownMs ? "open" : "half_open";
}

/** Whether a call may go to the gateway now, and the record once it does. */
export type Admission =
  | { readonly admitted: true; readonly record: BreakerRecord }
  | { readonly admitted: false; readonly retryAfterSeconds: number };

const secondsUntil = (at: number, now: Date) => Math.max(1, Math.ceil((at - now.getTime()) / 1000));

export function admit(record: BreakerRecord, policy: BreakerPolicy, now: Date): Admission {
  const state = breakerState(record, policy, now);
  if (state === "closed") return { admitted: true, record };
  if (state === "open") {
    return {
      admitted: false,
      retryAfterSeconds: secondsUntil((record.opened_at as Date).getTime() + policy.cooldownMs, now),
    };
  }
  const trialEnds = record.trial_started_at === null ? null : record.trial_started_at.getTime() + policy.trialLeaseMs;
  if (trialEnds !== null && now.getTime() < trialEnds) {
    return { admitted: false, retryAfterSeconds: secondsUntil(trialEnds, now) };
  }
  return { admitted: true, record: { ...record, trial_started_at: now } };
}

/** Any success closes the breaker and forgets the failures before it. */
export function recordSuccess(_record: BreakerRecord): BreakerRecord {
  return CLOSED_BREAKER;
}

/**
 * One more transient failure: it opens the breaker at the threshold, and a failed trial (or a
 * failure of a call let through before it opened) opens it for a fresh cool-down.
 */
export function recordFailure(record: BreakerRecord, policy: BreakerPolicy, now: Date): BreakerRecord {
  const consecutive_failures = record.consecutive_failures + 1;
  const opens = record.opened_at !== null || consecutive_failures >= policy.failures;
  return { consecutive_failures, opened_at: opens ? now : null, trial_started_at: null };
}

/** A trial call that ended neither way (the gateway refused the request itself): the next call may try. */
export function releaseTrial(record: BreakerRecord): BreakerRecord {
  return { ...record, trial_started_at: null };
}
