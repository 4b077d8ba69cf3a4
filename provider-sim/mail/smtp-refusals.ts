/** "Requested action aborted: local error in processing": a temporary refusal a client retries. */
export const DEFAULT_REFUSAL_CODE = 451;

export interface SmtpRefusal {
  readonly count: number;
  readonly code: number;
}

export interface SmtpRefusals {
  /** The next `count` messages are refused with `code`, after those already queued. */
  enqueue(refusal: SmtpRefusal): void;
  /** The reply code for this message, if a refusal is queued; each message uses up one of its `count`. */
  take(): number | undefined;
  clear(): void;
}

/** The mail sandbox's faults: refusals answered at the end of DATA, in place of accepting the message. */
export function createSmtpRefusals(): SmtpRefusals {
  let queued: { code: number; remaining: number }[] = [];
  return {
    enqueue(refusal) {
      queued.push({ code: refusal.code, remaining: refusal.count });
    },
    take() {
      const next = queued[0];
      if (!next) return undefined;
      next.remaining -= 1;
      if (next.remaining <= 0) queued = queued.slice(1);
      return next.code;
    },
    clear() {
      queued = [];
    },
  };
}
