import { DownloadSourceFailed } from "../../application/shared/errors.ts";
import {
  type ByteRange,
  contentRange,
  parseContentLength,
  parseContentRange,
  parseRangeHeader,
  type RangeSpec,
  resolveRange,
} from "../../kit/byte-range.ts";
import type { Logger } from "../../kit/logger.ts";
import { problem, problemResponse } from "../../kit/problem.ts";
import type { OutboundFetch } from "../security/guarded-fetch.ts";
import { createArtifactClient } from "./artifact-client.ts";
import { guardBody } from "./guarded-body.ts";

/** What the customer's request says about the bytes it wants. */
export interface DownloadRequest {
  readonly method: "GET" | "HEAD";
  readonly range: string | null;
  readonly ifRange: string | null;
  /** Asked again while a long transfer runs: false stops it (a license revoked meanwhile). */
  stillAllowed(): Promise<boolean>;
}

/** The server's headers the customer may see: what the file is, never where it lives. */
const PASSED_ON = ["content-type", "etag", "last-modified"] as const;

/**
 * The bytes come from another server but are served from the marketplace's origin: whatever they
 * are, the browser saves them and never renders or runs them here.
 */
const NEVER_RENDERED = {
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; sandbox",
} as const;

/** RFC 9110 §13.1.5: a strong entity tag equal to the current one, or a date equal to Last-Modified. */
function ifRangeHolds(ifRange: string, headers: Headers): boolean {
  const value = ifRange.trim();
  if (value.startsWith("W/")) return false;
  if (value.startsWith('"')) return value === headers.get("etag");
  const modified = Date.parse(headers.get("last-modified") ?? "");
  return !Number.isNaN(modified) && Date.parse(value) === modified;
}

/**
 * Always an attachment: the server's own `attachment; filename=...` where it gives one, otherwise
 * one named after the archive's last path segment.
 */
function disposition(url: string, upstream: string | null): string {
  if (upstream && /^attachment\s*(;|$)/i.test(upstream.trim())) return upstream.trim();
  const segment = new URL(url).pathname.split("/").filter(Boolean).at(-1) ?? "";
  let name = segment;
  try {
    name = decodeURIComponent(segment);
  } catch {}
  const safe = name.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 100);
  return safe && !/^\.+$/.test(safe) ? `attachment; filename="${safe}"` : "attachment";
}

/**
 * The marketplace hands a release archive over itself: it fetches the archive from its server
 * through the outbound guard and passes the bytes on as they arrive, so the server's address never
 * reaches the customer and every request is checked against the link first. One byte range per
 * request (206, or 416 when unsatisfiable); a server that ignores ranges is cut here; If-Range holds
 * only while the server's validator matches. A request with several ranges, or a malformed one, gets
 * the whole file, as RFC 9110 allows.
 */
export function createArtifactDownloads(deps: {
  readonly outbound: OutboundFetch;
  readonly timeoutSeconds: number;
  readonly logger: Logger;
  /** How often a running transfer asks whether it is still allowed. */
  readonly recheckMs?: number;
}) {
  const open = createArtifactClient(deps);
  const recheckMs = deps.recheckMs ?? 10_000;

  const answer = (
    url: string,
    request: DownloadRequest,
    upstream: Response,
    shape: { status: 200 | 206; range?: ByteRange; size?: number | undefined; skip?: number },
  ): Response => {
    const headers = new Headers({
      "accept-ranges": shape.size === undefined ? "none" : "bytes",
      "cache-control": "private, no-store",
      "content-type": "application/octet-stream",
      "content-disposition": disposition(url, upstream.headers.get("content-disposition")),
      ...NEVER_RENDERED,
    });
    for (const name of PASSED_ON) {
      const value = upstream.headers.get(name);
      if (value) headers.set(name, value);
    }
    const length = shape.range ? shape.range.end - shape.range.start + 1 : shape.size;
    if (shape.range) headers.set("content-range", contentRange(shape.range, shape.size));
    if (length !== undefined) headers.set("content-length", String(length));
    if (request.method === "HEAD" || !upstream.body) {
      void upstream.body?.cancel().catch(() => {});
      return new Response(null, { status: shape.status, headers });
    }
    const body = guardBody(upstream.body, {
      skip: shape.skip ?? 0,
      length,
      idleMs: deps.timeoutSeconds * 1000,
      recheckMs,
      stillAllowed: request.stillAllowed,
      onAbort: (reason) => deps.logger.warn({ reason }, "artifact download aborted"),
    });
    return new Response(body, { status: shape.status, headers });
  };

  const unsatisfiable = (upstream: Response, size: number | undefined) => {
    void upstream.body?.cancel().catch(() => {});
    return problemResponse(
      problem(416, "RANGE_NOT_SATISFIABLE", "The range asked for lies outside the file."),
      size === undefined ? {} : { "content-range": contentRange(undefined, size) },
    );
  };

  const fail = (upstream: Response, reason: string): never => {
    void upstream.body?.cancel().catch(() => {});
    throw new DownloadSourceFailed(reason);
  };

  const partial = (url: string, request: DownloadRequest, upstream: Response, spec: RangeSpec | undefined) => {
    const sent = parseContentRange(upstream.headers.get("content-range"));
    if (!spec || !sent?.range || sent.size === undefined) return fail(upstream, "a 206 without a usable Content-Range");
    const wanted = resolveRange(spec, sent.size);
    if (!wanted || sent.range.start !== wanted.start || sent.range.end > wanted.end) {
      return fail(upstream, `a 206 of bytes ${sent.range.start}-${sent.range.end} for ${JSON.stringify(spec)}`);
    }
    const declared = parseContentLength(upstream.headers.get("content-length"));
    if (declared !== undefined && declared !== sent.range.end - sent.range.start + 1) {
      return fail(upstream, "a 206 whose Content-Length disagrees with its Content-Range");
    }
    return answer(url, request, upstream, { status: 206, range: sent.range, size: sent.size });
  };

  const whole = (url: string, request: DownloadRequest, upstream: Response, spec: RangeSpec | undefined) => {
    const size = parseContentLength(upstream.headers.get("content-length"));
    const rangeStands =
      spec && size !== undefined && (!request.ifRange || ifRangeHolds(request.ifRange, upstream.headers));
    if (!rangeStands) return answer(url, request, upstream, { status: 200, size });
    // The server ignored the range: the bytes asked for are cut out of its whole answer here.
    const range = resolveRange(spec, size);
    if (!range) return unsatisfiable(upstream, size);
    return answer(url, request, upstream, { status: 206, range, size, skip: range.start });
  };

  return async (url: string, request: DownloadRequest): Promise<Response> => {
    const spec = parseRangeHeader(request.range);
    try {
      const upstream = await open(url, { method: request.method, range: spec, ifRange: request.ifRange ?? undefined });
      if (upstream.status === 206) return partial(url, request, upstream, spec);
      if (upstream.status === 416) {
        if (!spec) return fail(upstream, "a 416 to a request without a range");
        return unsatisfiable(upstream, parseContentRange(upstream.headers.get("content-range"))?.size);
      }
      return whole(url, request, upstream, spec);
    } catch (error) {
      deps.logger.warn(
        {
          host: URL.canParse(url) ? new URL(url).host : undefined,
          code: (error as { code?: unknown }).code,
          reason: (error as { reason?: unknown }).reason,
        },
        "artifact download refused",
      );
      throw error;
    }
  };
}

export type ArtifactDownloads = ReturnType<typeof createArtifactDownloads>;
