import {
  type Upstream,
  UpstreamBadResponse,
  UpstreamRateLimited,
  UpstreamRejected,
  UpstreamServerError,
  UpstreamTimeout,
  UpstreamUnreachable,
  UpstreamUrlNotAllowed,
} from "../../application/shared/errors.ts";
import { findStructureViolation } from "../../kit/json-structure.ts";
import { type OutboundFetch, OutboundUrlRefused } from "../security/guarded-fetch.ts";
import { DeadlinePassed, withinDeadline } from "./deadline.ts";

export interface UpstreamRequest {
  readonly method: "GET" | "POST" | "PATCH" | "DELETE";
  readonly url: URL;
  readonly headers: Record<string, string>;
  readonly body?: string;
  readonly timeoutSeconds: number;
  /** How to connect: the marketplace's connect-time address guard (`createGuardedFetch`). */
  readonly outbound: OutboundFetch;
}

export interface UpstreamResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
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

async function rejection(response: Response, read: RejectionReader): Promise<{ code?: string; detail?: string }> {
  try {
    const found = read(await response.json());
    return {
      ...(found.code ? { code: found.code.slice(0, 100) } : {}),
      ...(found.detail ? { detail: found.detail.slice(0, 200) } : {}),
    };
  } catch {
    return {};
  }
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

/**
 * One HTTP call to an upstream: no retries (the job system retries, with backoff), no redirects
 * followed, and one time-out for the whole exchange (resolving the host, connecting, the answer
 * and its body), with the connection made by `request.outbound`, which refuses non-public
 * addresses as it connects. Anything but a 2xx becomes a typed `UpstreamError`; the 2xx body is
 * returned as text for the caller to parse.
 */
export async function callUpstream(
  upstream: Upstream,
  request: UpstreamRequest,
  readRejection: RejectionReader,
): Promise<UpstreamResponse> {
  try {
    return await withinDeadline(request.timeoutSeconds * 1000, (signal) =>
      exchange(upstream, request, readRejection, signal),
    );
  } catch (error) {
    if (error instanceof DeadlinePassed) throw new UpstreamTimeout(upstream, request.timeoutSeconds);
    throw error;
  }
}

async function exchange(
  upstream: Upstream,
  request: UpstreamRequest,
  readRejection: RejectionReader,
  signal: AbortSignal,
): Promise<UpstreamResponse> {
  let response: Response;
  try {
    response = await request.outbound(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      redirect: "manual",
      signal,
    });
  } catch (error) {
    if (error instanceof OutboundUrlRefused) throw new UpstreamUrlNotAllowed(upstream, error.reason, error.transient);
    const code = (error as { code?: unknown }).code;
    const neverConnected = typeof code === "string" && NEVER_CONNECTED.has(code);
    throw new UpstreamUnreachable(upstream, describeConnectionFailure(error), neverConnected);
  }
  const { status } = response;
  if (status === 429) throw new UpstreamRateLimited(upstream, parseRetryAfter(response.headers.get("retry-after")));
  if (status === 408 || status >= 500) throw new UpstreamServerError(upstream, status);
  if (status >= 300) {
    const found = status >= 400 ? await rejection(response, readRejection) : { detail: "unexpected redirect" };
    throw new UpstreamRejected(upstream, status, found.code, found.detail);
  }
  try {
    return { status, headers: response.headers, text: await response.text() };
  } catch (error) {
    throw new UpstreamUnreachable(upstream, `the answer broke off: ${describeConnectionFailure(error)}`);
  }
}

/** An answer is held to the same shape limits as a request: a hostile upstream cannot stall us either. */
export function parseJsonBody(upstream: Upstream, text: string): unknown {
  const violation = findStructureViolation(text);
  if (violation) throw new UpstreamBadResponse(upstream, `it ${violation.reason}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new UpstreamBadResponse(upstream, "not JSON");
  }
}
