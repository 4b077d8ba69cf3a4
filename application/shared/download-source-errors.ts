import { DomainError, fixedError } from "../../domain/shared/domain-error.ts";

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
