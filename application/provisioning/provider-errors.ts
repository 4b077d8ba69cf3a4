import { DomainError, type ErrorCategory } from "../../domain/shared/domain-error.ts";

/**
 * Every way a provider call can fail. `transient` failures are worth retrying later (the job
 * system does that, with backoff); permanent ones need a person. `retryAfterMs` carries the
 * provider's own `Retry-After`.
 */
export abstract class ProviderError extends DomainError {
  abstract readonly transient: boolean;
  readonly retryAfterMs: number | undefined = undefined;
}

export class ProviderTimeout extends ProviderError {
  readonly code = "PROVIDER_TIMEOUT";
  readonly category: ErrorCategory = "upstream_timeout";
  readonly transient = true;
  constructor(seconds: number) {
    super(`The provider did not answer within ${seconds} s.`);
  }
}

export class ProviderUnreachable extends ProviderError {
  readonly code = "PROVIDER_UNREACHABLE";
  readonly category: ErrorCategory = "upstream_failed";
  readonly transient = true;
  constructor(reason: string) {
    super(`The provider could not be reached: ${reason}.`);
  }
}

export class ProviderServerError extends ProviderError {
  readonly code = "PROVIDER_SERVER_ERROR";
  readonly category: ErrorCategory = "upstream_failed";
  readonly transient = true;
  constructor(readonly status: number) {
    super(`The provider failed with HTTP ${status}.`);
  }
}

export class ProviderRateLimited extends ProviderError {
  readonly code = "PROVIDER_RATE_LIMITED";
  readonly category: ErrorCategory = "upstream_failed";
  readonly transient = true;
  override readonly retryAfterMs: number | undefined;
  constructor(retryAfterMs: number | undefined) {
    super(
      `The provider is rate limiting us${retryAfterMs === undefined ? "" : `; retry after ${Math.ceil(retryAfterMs / 1000)} s`}.`,
    );
    this.retryAfterMs = retryAfterMs;
  }
}

/** A 2xx whose body is not what the contract promises: never trusted, retried like an outage. */
export class ProviderBadResponse extends ProviderError {
  readonly code = "PROVIDER_BAD_RESPONSE";
  readonly category: ErrorCategory = "upstream_failed";
  readonly transient = true;
  constructor(reason: string) {
    super(`The provider answered with an invalid body: ${reason}.`);
  }
}

/** A 4xx other than 408 and 429: the provider refused the request itself; retrying cannot help. */
export class ProviderRejected extends ProviderError {
  readonly code: string;
  readonly category: ErrorCategory;
  readonly transient = false;
  constructor(
    readonly status: number,
    readonly providerCode: string | undefined,
    detail: string | undefined,
  ) {
    super(
      `The provider refused the request (HTTP ${status}${providerCode ? ` ${providerCode}` : ""})${detail ? `: ${detail}` : "."}`,
    );
    this.code =
      status === 404
        ? "PROVIDER_NOT_FOUND"
        : status === 401 || status === 403
          ? "PROVIDER_AUTH_FAILED"
          : "PROVIDER_REJECTED";
    this.category = status === 404 ? "not_found" : "upstream_failed";
  }
}

/** The configuration names a secret that is not stored anywhere. */
export class CredentialsNotFound extends ProviderError {
  readonly code = "CREDENTIALS_NOT_FOUND";
  readonly category: ErrorCategory = "conflict";
  readonly transient = false;
  constructor(ref: string) {
    super(`No secret is stored under the reference "${ref}".`);
  }
}
