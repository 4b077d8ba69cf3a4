export interface Backoff {
  /** The first retry's ceiling; each further attempt doubles it. */
  readonly baseMs: number;
  readonly maxMs: number;
}

/** What a run leaves behind: the row's next state. */
export type JobOutcome =
  | { readonly state: "done" }
  | { readonly state: "pending"; readonly delayMs: number; readonly error: string }
  | { readonly state: "dead"; readonly error: string };

const MAX_ERROR_LENGTH = 1000;

/**
 * Full jitter ("Exponential Backoff And Jitter", AWS Architecture Blog): uniform in
 * [0, min(maxMs, baseMs * 2^(attempt - 1))), so retries of a shared outage spread out. An
 * upstream's Retry-After is a floor, honoured even above `maxMs`.
 */
export function retryDelayMs(attempt: number, backoff: Backoff, random: () => number, retryAfterMs?: number): number {
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** (attempt - 1));
  return Math.max(Math.floor(random() * ceiling), retryAfterMs ?? 0);
}

/** A failure dead-letters on the last attempt or when the error says no retry can fix it. */
export function failureOutcome(
  error: unknown,
  run: { readonly attempt: number; readonly maxAttempts: number },
  backoff: Backoff,
  random: () => number,
): JobOutcome {
  const message = errorMessage(error);
  if (run.attempt >= run.maxAttempts || property(error, "transient") === false)
    return { state: "dead", error: message };
  const retryAfter = property(error, "retryAfterMs");
  const delayMs = retryDelayMs(run.attempt, backoff, random, typeof retryAfter === "number" ? retryAfter : undefined);
  return { state: "pending", delayMs, error: message };
}

/** The message only, never a stack: `last_error` is shown to admins. */
export function errorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > MAX_ERROR_LENGTH ? `${message.slice(0, MAX_ERROR_LENGTH - 1)}…` : message;
}

export function errorCode(error: unknown): string | undefined {
  const code = property(error, "code");
  return typeof code === "string" ? code : undefined;
}

function property(error: unknown, key: string): unknown {
  return typeof error === "object" && error !== null ? (error as Record<string, unknown>)[key] : undefined;
}
