import { DownloadSourceBusy, DownloadSourceFailed, DownloadSourceTimeout } from "../../application/shared/errors.ts";
import { type RangeSpec, rangeHeader } from "../../kit/byte-range.ts";
import { type OutboundFetch, OutboundUrlRefused } from "../security/guarded-fetch.ts";
import { DeadlinePassed, withinDeadline } from "../upstream/deadline.ts";
import { describeConnectionFailure, parseRetryAfter } from "../upstream/upstream-http.ts";

export interface ArtifactRequest {
  readonly method: "GET" | "HEAD";
  readonly range?: RangeSpec | undefined;
  /** Sent with `range` only: the server then answers the range only while its validator matches. */
  readonly ifRange?: string | undefined;
}

/** Mirrors and object stores send a download on to a CDN; each hop is checked again by the guard. */
const MAX_REDIRECTS = 5;
/** A busy answer without a usable Retry-After. */
const DEFAULT_RETRY_AFTER_S = 5;

function parseUrl(raw: string, base?: URL): URL {
  try {
    return new URL(raw, base);
  } catch {
    throw new DownloadSourceFailed(`not a URL: ${raw.slice(0, 200)}`);
  }
}

function retryAfterSeconds(header: string | null): number {
  const ms = parseRetryAfter(header);
  return ms === undefined ? DEFAULT_RETRY_AFTER_S : Math.min(3600, Math.max(1, Math.ceil(ms / 1000)));
}

/**
 * Opens a release archive at its server: the answer's headers arrive within `timeoutSeconds` or
 * the call is a `DownloadSourceTimeout`; the body is left to the caller, unread. Only 200, 206 and
 * 416 come back; every other answer is a typed failure whose reason is for the operator's log.
 * The body is asked for uncompressed (`identity`), so lengths and ranges count the file's own bytes.
 */
export function createArtifactClient(deps: { readonly outbound: OutboundFetch; readonly timeoutSeconds: number }) {
  const once = async (url: URL, request: ArtifactRequest, signal: AbortSignal): Promise<Response> => {
    const headers: Record<string, string> = { accept: "*/*", "accept-encoding": "identity" };
    if (request.range) headers.range = rangeHeader(request.range);
    if (request.range && request.ifRange) headers["if-range"] = request.ifRange;
    try {
      return await deps.outbound(url, { method: request.method, headers, redirect: "manual", signal });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (error instanceof OutboundUrlRefused) throw new DownloadSourceFailed(`address refused: ${error.reason}`);
      throw new DownloadSourceFailed(`unreachable: ${describeConnectionFailure(error)}`);
    }
  };

  const follow = async (start: URL, request: ArtifactRequest, signal: AbortSignal): Promise<Response> => {
    let url = start;
    let method = request.method;
    for (let hop = 0; ; hop += 1) {
      const response = await once(url, { ...request, method }, signal);
      const { status } = response;
      if ([200, 206, 416].includes(status)) {
        const encoding = response.headers.get("content-encoding");
        if (encoding && encoding.toLowerCase() !== "identity") {
          await response.body?.cancel();
          throw new DownloadSourceFailed(`answered with content-encoding ${encoding} to identity`);
        }
        return response;
      }
      await response.body?.cancel();
      if (method === "HEAD" && (status === 405 || status === 501)) {
        // A server that knows no HEAD is asked with a GET whose body is never read.
        method = "GET";
        continue;
      }
      const location = response.headers.get("location");
      if ([301, 302, 303, 307, 308].includes(status) && location && hop < MAX_REDIRECTS) {
        url = parseUrl(location, url);
        continue;
      }
      if (status === 429 || status === 503)
        throw new DownloadSourceBusy(retryAfterSeconds(response.headers.get("retry-after")));
      throw new DownloadSourceFailed(
        status >= 300 && status < 400 ? `HTTP ${status}: redirects without end` : `HTTP ${status}`,
      );
    }
  };

  return async (url: string, request: ArtifactRequest): Promise<Response> => {
    try {
      // The deadline covers resolving, connecting and every hop's headers; the body is not under it.
      return await withinDeadline(deps.timeoutSeconds * 1000, (signal) => follow(parseUrl(url), request, signal));
    } catch (error) {
      if (error instanceof DeadlinePassed) throw new DownloadSourceTimeout();
      throw error;
    }
  };
}

export type ArtifactClient = ReturnType<typeof createArtifactClient>;
