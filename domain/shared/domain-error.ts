/**
 * What kind of failure an error is, independent of any transport. The HTTP layer maps each
 * category to a status code; the domain never speaks HTTP.
 */
export type ErrorCategory =
  /** The request itself is unusable (a bad signature, bytes that are not what they claim). */
  | "malformed"
  | "invalid"
  | "unauthenticated"
  | "forbidden"
  | "not_found"
  | "conflict"
  /** It existed and will not come back: an expired or revoked link. */
  | "gone"
  /** Asked too often: wait and retry. */
  | "rate_limited"
  | "unavailable"
  /** A system we depend on failed or answered nonsense. */
  | "upstream_failed"
  /** A system we depend on did not answer in time. */
  | "upstream_timeout";

export interface FieldError {
  /** JSON pointer style path of the offending field, e.g. `/fulfillment_config/base_url`. */
  readonly path: string;
  readonly message: string;
  readonly code?: string;
}

/** Base of every expected failure. `code` is stable and UPPER_SNAKE; clients branch on it. */
export abstract class DomainError extends Error {
  abstract readonly code: string;
  abstract readonly category: ErrorCategory;
  readonly errors: readonly FieldError[] | undefined;
  /** Members a client reads beside the code (RFC 9457 extension members), such as the state that refused. */
  readonly extensions: Readonly<Record<string, unknown>> | undefined = undefined;

  constructor(message: string, errors?: readonly FieldError[]) {
    super(message);
    this.name = new.target.name;
    this.errors = errors;
  }
}

/**
 * A failure that always says the same thing, declared in one line:
 * `class OrderNotFound extends fixedError("ORDER_NOT_FOUND", "not_found", "The order does not exist.") {}`.
 */
export function fixedError(code: string, category: ErrorCategory, message: string, errors?: readonly FieldError[]) {
  return class extends DomainError {
    readonly code = code;
    readonly category = category;

    constructor() {
      super(message, errors);
    }
  };
}

/**
 * A refusal with several possible reasons: its code names the reason (`<PREFIX>_<REASON>`), its
 * message is the reason's words, so clients branch on the code and people read the message.
 */
export abstract class ReasonedRefusal<Reason extends string> extends DomainError {
  readonly code: string;
  readonly category = "conflict";

  constructor(prefix: string, words: Readonly<Record<Reason, string>>, reason: Reason) {
    super(words[reason]);
    this.code = `${prefix}_${reason.toUpperCase()}`;
  }
}
