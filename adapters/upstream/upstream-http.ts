import ky, { HTTPError, type KyInstance, type KyResponse, NetworkError, TimeoutError } from "ky";
import {
  type Upstream,
  UpstreamBadResponse,
  UpstreamError,
  UpstreamRateLimited,
  UpstreamRejected,
  UpstreamServerError,
  UpstreamTimeout,
  UpstreamUnreachable,
  UpstreamUrlNotAllowed,
} from "../../application/shared/errors.ts";
import { findStructureViolation } from "../../kit/json-structure.ts";
import { type OutboundFetch, OutboundUrlRefused } from "../security/guarded-fetch.ts";
import { outcomeOf, publishUpstreamCall } from "./upstream-calls.ts";

export interface UpstreamRequest {
  readonly method: "GET" | "POST" | "PATCH" | "DELETE";
  readonly url: URL;
  readonly headers: Record<string, string>;
  readonly body?: string;
  readonly timeoutSeconds: number;
  /** How to connect: the marketplace's connect-time address guard (`createGuardedFetch`). */
  readonly outbound: OutboundFetch;
  /** Who is called, as metrics name it (`gateway_a`, `provider`); the `upstream` when absent. */
  readonly name?: string;
}

export interface UpstreamResponse {
  readonly status: number;
  readonly headers: Headers;
  /** The 2xx body, parsed under the shape limits. */
  readonly body: unknown;
}

/** How an upstream phrases a refusal in its error body: a code and a human detail. */
export type RejectionReader = (body: unknown) => { code?: string; detail?: string };

/** Seconds or an HTTP date, as RFC 9110 allows. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

const CONNECTION_FAILURES: Readonly<Record<string, string>> = {
  ECONNREFUSED: "connection refused",
  ConnectionRefused: "connection refused",
  ECONNRESET: "connection reset",
  ConnectionClosed: "connection closed",
  ENOTFOUND: "host name not found",
  EAI_AGAIN: "host name lookup failed",
  ETIMEDOUT: "connection timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
};

/** Failures to connect at all: no byte of the request reached the upstream. */
const NEVER_CONNECTED = new Set([
  "ECONNREFUSED",
  "ConnectionRefused",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

/** A reason an operator can read in `last_error`: what happened, then the system's code. */
export function describeConnectionFailure(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && code) {
    const readable = CONNECTION_FAILURES[code];
    return readable ? `${readable} (${code})` : code;
  }
  return error instanceof Error ? error.message : "connection failed";
}

/** An error body as the reader sees it: JSON whatever its content type, else nothing. */
function errorBody(data: unknown): unknown {
  if (typeof data !== "string") return data;
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

function rejection(data: unknown, read: RejectionReader): { code?: string; detail?: string } {
  try {
    const found = read(errorBody(data));
    return {
      ...(found.code ? { code: found.code.slice(0, 100) } : {}),
      ...(found.detail ? { detail: found.detail.slice(0, 200) } : {}),
    };
  } catch {
    return {};
  }
}

/** A non-2xx answer as the typed error the callers and the job system branch on. */
function answerError(upstream: Upstream, error: HTTPError, read: RejectionReader): UpstreamError {
  const { status, headers } = error.response;
  if (status === 429) return new UpstreamRateLimited(upstream, parseRetryAfter(headers.get("retry-after")));
  if (status === 408 || status >= 500) return new UpstreamServerError(upstream, status);
  if (status < 400) return new UpstreamRejected(upstream, status, undefined, "unexpected redirect");
  const found = rejection(error.data, read);
  return new UpstreamRejected(upstream, status, found.code, found.detail);
}

/**
 * What went wrong, as an `UpstreamError`. ky's own errors name the URL (query included); none of
 * them goes further than here, so no credential in a URL reaches a log line or `last_error`.
 */
function typedError(upstream: Upstream, request: UpstreamRequest, read: RejectionReader, error: Error): Error {
  if (error instanceof UpstreamError) return error;
  if (error instanceof HTTPError) return answerError(upstream, error, read);
  if (error instanceof TimeoutError) return new UpstreamTimeout(upstream, request.timeoutSeconds);
  if (error instanceof OutboundUrlRefused) return new UpstreamUrlNotAllowed(upstream, error.reason, error.transient);
  const cause = error instanceof NetworkError ? error.cause : error;
  const code = (cause as { code?: unknown }).code;
  const neverConnected = typeof code === "string" && NEVER_CONNECTED.has(code);
  return new UpstreamUnreachable(upstream, describeConnectionFailure(cause), neverConnected);
}

/**
 * One HTTP call to an upstream, through ky with the connect-time guard as its `fetch` (see
 * `clientFor` for what every call shares), timed and published to the metrics when it ends.
 */
export async function callUpstream(
  upstream: Upstream,
  request: UpstreamRequest,
  readRejection: RejectionReader,
): Promise<UpstreamResponse> {
  const startedAt = performance.now();
  const call = { name: request.name ?? upstream, method: request.method };
  try {
    const response = await exchange(upstream, request, readRejection);
    publishUpstreamCall({ ...call, outcome: "ok", seconds: (performance.now() - startedAt) / 1000 });
    return response;
  } catch (error) {
    publishUpstreamCall({ ...call, outcome: outcomeOf(error), seconds: (performance.now() - startedAt) / 1000 });
    throw error;
  }
}

/** What the shared client's hooks need to know about the call they serve (ky's `context`). */
interface CallContext {
  readonly upstream: Upstream;
  readonly request: UpstreamRequest;
  readonly readRejection: RejectionReader;
}

/** A 2xx body that is not JSON within the shape limits; `exchange` names the upstream. */
class UnreadableAnswer extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * One ky client per way of connecting, its options fixed once: a call then passes only what differs
 * (method, headers, body, time-out and the context its hooks read), and ky does not merge hooks,
 * headers and retry settings again for every call: 246 µs of CPU a call against 285 in a loop,
 * where a bare guarded `fetch` takes 195 (docs/performance.md).
 * - no retries: the job system retries with backoff and full jitter, honouring the upstream's
 *   `Retry-After` (carried by `UpstreamRateLimited`), and a POST that reached the upstream is
 *   never repeated blindly;
 * - no redirects followed;
 * - anything but a 2xx becomes a typed `UpstreamError` (ky's `beforeError` hook); a 2xx body is
 *   parsed under the shape limits (ky's `parseJson`).
 */
const clients = new WeakMap<OutboundFetch, KyInstance>();
function clientFor(outbound: OutboundFetch): KyInstance {
  let client = clients.get(outbound);
  if (client === undefined) {
    client = ky.create({
      redirect: "manual",
      fetch: outbound,
      retry: 0,
      // With no retry, the total time-out (per call) is the whole exchange's; a per-attempt one
      // would only add a second timer and abort controller to every call.
      timeout: false,
      parseJson: parseStructuredJson,
      hooks: {
        beforeError: [
          ({ error, options }) => {
            const call = options.context as unknown as CallContext;
            return typedError(call.upstream, call.request, call.readRejection, error);
          },
        ],
      },
    });
    clients.set(outbound, client);
  }
  return client;
}

async function exchange(
  upstream: Upstream,
  request: UpstreamRequest,
  readRejection: RejectionReader,
): Promise<UpstreamResponse> {
  const context: CallContext = { upstream, request, readRejection };
  const answer = clientFor(request.outbound)(request.url, {
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
    // One time-out for the whole exchange: resolving the host (the guard does it), connecting, the
    // answer and its body, even when a step ignores the abort signal.
    totalTimeout: request.timeoutSeconds * 1000,
    context: context as unknown as Record<string, unknown>,
  });
  let body: unknown;
  try {
    body = await answer.json();
  } catch (error) {
    if (error instanceof UpstreamError) throw error;
    if (error instanceof UnreadableAnswer) throw new UpstreamBadResponse(upstream, error.reason);
    // Past the beforeError hook, only reading the 2xx body can fail: it broke off.
    throw new UpstreamUnreachable(upstream, `the answer broke off: ${describeConnectionFailure(error)}`);
  }
  const response: KyResponse = await answer;
  return { status: response.status, headers: response.headers, body };
}

/** An answer is held to the same shape limits as a request: a hostile upstream cannot stall us either. */
function parseStructuredJson(text: string): unknown {
  const violation = findStructureViolation(text);
  if (violation) throw new UnreadableAnswer(`it ${violation.reason}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new UnreadableAnswer("not JSON");
  }
}
