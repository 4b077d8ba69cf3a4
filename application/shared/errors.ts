import { DomainError, type ErrorCategory, type FieldError, fixedError } from "../../domain/shared/domain-error.ts";

/** The systems we call: the point-of-sale provider and the payment gateways. */
export type Upstream = "provider" | "gateway";

const prefix = (upstream: Upstream) => (upstream === "provider" ? "PROVIDER" : "GATEWAY");
const subject = (upstream: Upstream) => (upstream === "provider" ? "The provider" : "The payment gateway");

/**
 * Every way a call to an upstream system can fail. `transient` failures are worth retrying later
 * (the job system does, with backoff); permanent ones need a person. `retryAfterMs` carries the
 * upstream's own `Retry-After`. Codes are `PROVIDER_*` or `GATEWAY_*`, but for `URL_NOT_ALLOWED`.
 */
export abstract class UpstreamError extends DomainError {
  abstract readonly transient: boolean;
  readonly retryAfterMs: number | undefined = undefined;
  readonly code: string;
  readonly category: ErrorCategory;

  constructor(
    readonly upstream: Upstream,
    kind: string,
    category: ErrorCategory,
    message: string,
  ) {
    super(`${subject(upstream)} ${message}`);
    this.code = `${prefix(upstream)}_${kind}`;
    this.category = category;
  }
}

export class UpstreamTimeout extends UpstreamError {
  readonly transient = true;
  constructor(upstream: Upstream, seconds: number) {
    super(upstream, "TIMEOUT", "upstream_timeout", `did not answer within ${seconds} s.`);
  }
}

export class UpstreamUnreachable extends UpstreamError {
  readonly transient = true;
  /**
   * `sentNothing`: the connection was never made (refused, no such host), so the upstream cannot
   * have acted on the request; a connection that broke later may have carried it.
   */
  constructor(
    upstream: Upstream,
    reason: string,
    readonly sentNothing = false,
  ) {
    super(upstream, "UNREACHABLE", "upstream_failed", `could not be reached: ${reason}.`);
  }
}

export class UpstreamServerError extends UpstreamError {
  readonly transient = true;
  constructor(
    upstream: Upstream,
    readonly status: number,
  ) {
    super(upstream, "SERVER_ERROR", "upstream_failed", `failed with HTTP ${status}.`);
  }
}

export class UpstreamRateLimited extends UpstreamError {
  readonly transient = true;
  override readonly retryAfterMs: number | undefined;
  constructor(upstream: Upstream, retryAfterMs: number | undefined) {
    const after = retryAfterMs === undefined ? "" : `; retry after ${Math.ceil(retryAfterMs / 1000)} s`;
    super(upstream, "RATE_LIMITED", "upstream_failed", `is rate limiting us${after}.`);
    this.retryAfterMs = retryAfterMs;
  }
}

/** A 2xx whose body is not what the contract promises: never trusted, retried like an outage. */
export class UpstreamBadResponse extends UpstreamError {
  readonly transient = true;
  constructor(upstream: Upstream, reason: string) {
    super(upstream, "BAD_RESPONSE", "upstream_failed", `answered with an invalid body: ${reason}.`);
  }
}

/** A 4xx other than 408 and 429, or a redirect: the upstream refused the request itself. */
export class UpstreamRejected extends UpstreamError {
  readonly transient = false;
  constructor(
    upstream: Upstream,
    readonly status: number,
    readonly upstreamCode: string | undefined,
    readonly detail: string | undefined,
  ) {
    const kind = status === 404 ? "NOT_FOUND" : status === 401 || status === 403 ? "AUTH_FAILED" : "REJECTED";
    super(
      upstream,
      kind,
      status === 404 ? "not_found" : "upstream_failed",
      `refused the request (HTTP ${status}${upstreamCode ? ` ${upstreamCode}` : ""})${detail ? `: ${detail}` : "."}`,
    );
  }
}

/**
 * A failure that says the gateway is down or overloaded, not that it refused the request: time-out,
 * no connection, 5xx, 429, an answer that is not what the API promises. Only these count towards
 * the breaker and send a checkout elsewhere; a 4xx or our own refusal would fail there too.
 */
export function isGatewayOutage(error: unknown): error is UpstreamError {
  return (
    error instanceof UpstreamError &&
    error.upstream === "gateway" &&
    error.transient &&
    !(error instanceof UpstreamUrlNotAllowed)
  );
}

/** The configuration names a secret that is not stored anywhere. */
export class CredentialsNotFound extends UpstreamError {
  readonly transient = false;
  constructor(upstream: Upstream, ref: string) {
    super(upstream, "CREDENTIALS_NOT_FOUND", "conflict", `has no credentials: nothing is stored under "${ref}".`);
  }
}

/**
 * The address was refused as the call was about to connect: it is not a public one (or is a
 * localhost name). Same code as a refused save, answered 422. A private address is permanent; a
 * host that does not resolve may be a passing DNS outage, so it is transient and retried.
 */
export class UpstreamUrlNotAllowed extends UpstreamError {
  override readonly code = "URL_NOT_ALLOWED";
  readonly transient: boolean;
  constructor(upstream: Upstream, reason: string, transient: boolean) {
    super(upstream, "URL_NOT_ALLOWED", "invalid", `is at an address the marketplace does not call: ${reason}.`);
    this.transient = transient;
  }
}

/**
 * Why the server that holds a release archive could not hand it over. The customer reads these:
 * they never name the server or its address, which stays the marketplace's to know.
 */
export class DownloadSourceTimeout extends fixedError(
  "DOWNLOAD_SOURCE_TIMEOUT",
  "upstream_timeout",
  "The download server did not answer in time; try the link again shortly.",
) {}

export class DownloadSourceFailed extends DomainError {
  readonly code = "DOWNLOAD_SOURCE_FAILED";
  readonly category = "upstream_failed";

  /** `reason` is for the operator's log; the customer's message says only what failed. */
  constructor(readonly reason: string) {
    super("The download server failed to deliver the file; try the link again later or contact support.");
  }
}

/** The server is overloaded or rate limiting us: worth trying again after `retryAfterSeconds`. */
export class DownloadSourceBusy extends DomainError {
  readonly code = "DOWNLOAD_SOURCE_BUSY";
  readonly category = "unavailable";

  constructor(readonly retryAfterSeconds: number) {
    super(`The download server is busy; try the link again in ${retryAfterSeconds} s.`);
  }
}

export class UrlNotAllowed extends DomainError {
  readonly code = "URL_NOT_ALLOWED";
  readonly category = "invalid";

  constructor(errors: readonly FieldError[]) {
    super("An address points at a host the marketplace does not call.", errors);
  }
}

export class IdempotencyKeyReused extends fixedError(
  "IDEMPOTENCY_KEY_REUSED",
  "invalid",
  "This Idempotency-Key was used with a different request body.",
) {}

export class IdempotencyKeyInvalid extends fixedError(
  "IDEMPOTENCY_KEY_INVALID",
  "malformed",
  "An Idempotency-Key is 1 to 255 printable ASCII characters without spaces, at least 32 without a bearer token (a V4 UUID fits).",
) {}

export class IdempotentRequestInProgress extends fixedError(
  "IDEMPOTENT_REQUEST_IN_PROGRESS",
  "conflict",
  "A request with this Idempotency-Key is still being processed; retry shortly.",
) {}

/** A failure no retry can fix: the job is dead-lettered at once. */
export class PermanentJobFailure extends DomainError {
  readonly code = "PERMANENT_JOB_FAILURE";
  readonly category = "conflict";
  readonly transient = false;
}

/**
 * The subscription was written (a customer's resume, say) while the gateway was asked about it:
 * the answer may be older than what is stored, so the job asks again rather than write it.
 */
export class SubscriptionChangedMeanwhile extends DomainError {
  readonly code = "SUBSCRIPTION_CHANGED_MEANWHILE";
  readonly category = "conflict";
  readonly transient = true;
  constructor(gatewaySubscriptionId: string) {
    super(`subscription ${gatewaySubscriptionId} changed while the gateway was asked about it; asking again`);
  }
}

export class DeadJobNotFound extends fixedError("JOB_NOT_FOUND", "not_found", "No dead job has this id.") {}
