import { Elysia } from "elysia";
import { type AccessEntry, accessLineWriter, type Logger } from "./logger.ts";
import { HttpProblem } from "./problem.ts";
import { createUrlRedactor } from "./url-redaction.ts";

interface RequestMeta {
  readonly id: string;
  readonly startedAt: number;
}

const metas = new WeakMap<Request, RequestMeta>();
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fresh ids shaped as UUIDs: a random prefix drawn once per process and a twelve-digit counter
 * (decimal digits are hex digits too). Unique within the process by the counter and across
 * processes by the prefix, for a string concatenation instead of a random draw per request. A
 * request id correlates lines; it is not a secret (a caller may choose its own).
 */
const ID_PREFIX = crypto.randomUUID().slice(0, 24);
const FIRST_ID = 100_000_000_000;
const LAST_ID = 999_999_999_999;
let nextId = FIRST_ID;

/** The caller's `X-Request-Id` when it is sane, else a fresh id. */
export function requestIdFor(incoming: string | null): string {
  if (incoming !== null && SAFE_REQUEST_ID.test(incoming)) return incoming;
  const id = ID_PREFIX + nextId;
  nextId = nextId === LAST_ID ? FIRST_ID : nextId + 1;
  return id;
}

/** The id of a request: the caller's `X-Request-Id` when it is sane, else a fresh one. */
export function requestIdOf(request: Request): string {
  return metas.get(request)?.id ?? "unknown";
}

export type { AccessEntry };

/** One answered request as metrics see it: the route's template, not its concrete path. */
export interface AnsweredRequest {
  readonly method: string;
  /** The matched route's template (`/api/admin/orders/:id`), empty when no route matched. */
  readonly route: string;
  readonly status: number;
  readonly seconds: number;
}

/** Told of every answered request, after the answer is sent. */
export type RequestObserver = (answered: AnsweredRequest) => void;

/** Milliseconds since `startedAt` (a `performance.now()`), to two decimals. */
export const durationSince = (startedAt: number) => Math.round((performance.now() - startedAt) * 100) / 100;

/** Writes access-log lines: one shape for every path that answers a request. */
export function createAccessLog(access: Logger): (entry: AccessEntry) => void {
  return accessLineWriter(access);
}

/** The target of an absolute request URL: its path and query, without building a URL object. */
export function targetOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  return start < 0 ? "/" : url.slice(start);
}

/**
 * Gives every request an id (echoed in `X-Request-Id`) and writes one access-log line per
 * response, errors included, with the values that grant access hidden from its target.
 */
export function createRequestContext(deps: {
  logger: Logger;
  accessLogger?: Logger;
  redactTarget?: (target: string) => string;
  observe?: RequestObserver;
}) {
  const logAccess = createAccessLog(deps.accessLogger ?? deps.logger);
  const redactTarget = deps.redactTarget ?? createUrlRedactor(() => []);
  return new Elysia({ name: "request-context" })
    .onRequest(({ request, set }) => {
      const id = requestIdFor(request.headers.get("x-request-id"));
      metas.set(request, { id, startedAt: performance.now() });
      set.headers["x-request-id"] = id;
      // PostgreSQL text cannot hold U+0000: a NUL in a path or query never reaches a query.
      if (/%00/i.test(request.url)) {
        throw new HttpProblem(400, "NUL_CHARACTER", "The URL must not contain the NUL character (%00).");
      }
    })
    .onAfterResponse({ as: "global" }, ({ request, set, responseValue, route }) => {
      const meta = metas.get(request);
      // A handler that returns a Response (a 304, say) sets its status there; Elysia keeps it unless it is 200.
      const status =
        responseValue instanceof Response && responseValue.status !== 200
          ? responseValue.status
          : typeof set.status === "number"
            ? set.status
            : 200;
      const durationMs = meta ? durationSince(meta.startedAt) : undefined;
      logAccess({
        req_id: meta?.id,
        method: request.method,
        path: redactTarget(targetOf(request.url)),
        status,
        duration_ms: durationMs,
      });
      // Elysia leaves `route` unset when no route matched.
      deps.observe?.({ method: request.method, route: route ?? "", status, seconds: (durationMs ?? 0) / 1000 });
    });
}
