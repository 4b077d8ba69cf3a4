import {
  IdempotencyKeyInvalid,
  IdempotencyKeyReused,
  IdempotentRequestInProgress,
} from "../../application/shared/errors.ts";
import { canonicalJson } from "../../domain/checkout/canonical-json.ts";
import type { DomainError } from "../../domain/shared/domain-error.ts";
import { readLimitedBytes } from "../../kit/body-parser.ts";
import { hmacSha256Hex } from "../../kit/hmac.ts";
import { HttpProblem, problem, problemResponse } from "../../kit/problem.ts";
import {
  type AccessEntry,
  durationSince,
  type RequestObserver,
  requestIdFor,
  targetOf,
} from "../../kit/request-context.ts";
import { isDatabaseUnavailable } from "../postgres/database.ts";
import type { IdempotentRequestStore, KeyScope, StoredAnswer } from "../postgres/idempotent-request-store.ts";
import { STATUS_BY_CATEGORY } from "./error-handler.ts";
import { takesIdempotencyKey } from "./idempotent-routes.ts";

type Fetch = (request: Request, server?: unknown) => Response | Promise<Response>;

/** Stripe's limit, printable ASCII without spaces: a key is an opaque token, and a header value. */
const KEY = /^[\x21-\x7E]{1,255}$/;
/**
 * Without a bearer token, the key is all that tells one buyer's retry from another's request (and
 * the answer may hold an order's status link): it must be long enough to be a random one.
 */
const ANONYMOUS_KEY_MIN_LENGTH = 32;

export interface IdempotencyOptions {
  readonly store: IdempotentRequestStore;
  /** `user:<id>`, `key:<api key id>` or `anonymous`; undefined for a credential the route will refuse. */
  identify(request: Request): Promise<string | undefined>;
  /** The route template a method and path fall under (`POST /api/admin/orders/:id/refund`). */
  routeOf(method: string, path: string): string | undefined;
  /** Keys the request hash: request bodies (a password change's) are not kept as plain digests. */
  readonly hashSecret: string;
  readonly bodyLimitBytes: number;
  readonly logAccess: (entry: AccessEntry) => void;
  /** Metrics: an answer given here (a replay, a refusal) never reaches Elysia's own observer. */
  readonly observe?: RequestObserver;
  readonly redactTarget: (target: string) => string;
}

/**
 * Whether an answer is kept for replay. Like Stripe, what the route decided (2xx, and 4xx such as a
 * 404 or a 422) is. What says the request did not run, or ran into something still going, frees the
 * key, so the retry runs: 5xx, 429 (rate limited), 401 and 403 (the credential, once fixed, is
 * retried), 409 (a conflict with a request in flight, such as `REFUND_IN_PROGRESS`, or with the
 * current state: nothing was changed) and a route's own `IDEMPOTENCY_KEY_REUSED` (a refund's
 * reservation remembers its body: the key stays the first body's).
 */
export function keepsAnswer(status: number, body: Uint8Array): boolean {
  if (status >= 500 || status === 429 || status === 401 || status === 403 || status === 409) return false;
  return !(status === 422 && new TextDecoder().decode(body).includes('"code":"IDEMPOTENCY_KEY_REUSED"'));
}

/** The request as a hash compares it: its target, and its body with JSON keys in a fixed order. */
function canonicalBody(bytes: Uint8Array): string | Uint8Array {
  if (bytes.byteLength === 0) return "";
  try {
    return canonicalJson(JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)));
  } catch {
    return bytes;
  }
}

/**
 * `next` honouring `Idempotency-Key` on every mutating `/api` route (idempotent-routes.ts says which):
 * the first answer under a caller's key for a route is kept and replayed byte for byte (status,
 * content type, body) with `Idempotent-Replayed: true`; the key with another request is a 422
 * `IDEMPOTENCY_KEY_REUSED`; while the first runs, a 409 `IDEMPOTENT_REQUEST_IN_PROGRESS`. The key is
 * claimed in PostgreSQL, so every instance sees it. A request without a key, or one whose
 * credential is bad (the route answers 401), runs as it is.
 */
export function withIdempotency(next: Fetch, options: IdempotencyOptions): Fetch {
  const { store } = options;
  // Most requests carry no key: they go on before the URL is read or a promise is made.
  return (request, server) => {
    const key = request.headers.get("idempotency-key");
    return key === null ? next(request, server) : withKey(request, server, key);
  };

  async function withKey(request: Request, server: unknown, key: string): Promise<Response> {
    const target = targetOf(request.url);
    const path = target.split("?", 1)[0] ?? target;
    if (!takesIdempotencyKey(request.method, path)) return next(request, server);
    const startedAt = performance.now();
    const id = requestIdFor(request.headers.get("x-request-id"));
    const route = options.routeOf(request.method, path);
    const answer = (response: Response) => {
      response.headers.set("x-request-id", id);
      const entry = { method: request.method, path: options.redactTarget(target), status: response.status };
      const durationMs = durationSince(startedAt);
      options.logAccess({ req_id: id, ...entry, duration_ms: durationMs });
      // Labelled by the template alone, as Elysia's `route` is (`/api/admin/orders/:id/refund`).
      const template = route === undefined ? "" : route.slice(route.indexOf(" ") + 1);
      options.observe?.({
        method: request.method,
        route: template,
        status: response.status,
        seconds: durationMs / 1000,
      });
      return response;
    };
    const refuse = (error: DomainError) =>
      answer(problemResponse(problem(STATUS_BY_CATEGORY[error.category], error.code, error.message)));
    if (!KEY.test(key)) return refuse(new IdempotencyKeyInvalid());
    const caller = route === undefined ? undefined : await options.identify(request);
    if (route === undefined || caller === undefined) return next(request, server);
    if (caller === "anonymous" && key.length < ANONYMOUS_KEY_MIN_LENGTH) return refuse(new IdempotencyKeyInvalid());
    let bytes: Uint8Array;
    try {
      // A copy is read: the request itself goes on as the server received it (its client address).
      bytes = await readLimitedBytes(request.clone(), options.bodyLimitBytes);
    } catch (error) {
      if (!(error instanceof HttpProblem)) throw error;
      return answer(problemResponse(problem(error.status, error.code, error.message)));
    }
    const hash = await hmacSha256Hex(options.hashSecret, request.method, " ", target, "\n", canonicalBody(bytes));
    const scope: KeyScope = { caller, route, key };
    try {
      const begun = await store.begin(scope, hash);
      if (begun.state === "mismatch") return refuse(new IdempotencyKeyReused());
      if (begun.state === "in_progress") return refuse(new IdempotentRequestInProgress());
      if (begun.state === "completed") return answer(replay(begun.answer));
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      return answer(
        problemResponse(
          problem(503, "DATABASE_UNAVAILABLE", "The database cannot be reached right now; retry shortly."),
        ),
      );
    }
    return run(() => next(request, server), store, scope);
  }
}

async function run(work: () => Response | Promise<Response>, store: IdempotentRequestStore, scope: KeyScope) {
  let response: Response;
  try {
    response = await work();
  } catch (error) {
    await store.abandon(scope);
    throw error;
  }
  const body = new Uint8Array(await response.arrayBuffer());
  const sent = new Response(withoutBody(response.status) ? null : body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  if (keepsAnswer(response.status, body)) {
    await store.complete(scope, { status: response.status, contentType: response.headers.get("content-type"), body });
  } else await store.abandon(scope);
  return sent;
}

function replay(stored: StoredAnswer): Response {
  const headers: Record<string, string> = { "idempotent-replayed": "true" };
  if (stored.contentType !== null) headers["content-type"] = stored.contentType;
  return new Response(withoutBody(stored.status) ? null : stored.body, { status: stored.status, headers });
}

/** Statuses whose answer has no body: a `Response` may not be given one. */
const withoutBody = (status: number) => status === 204 || status === 205 || status === 304;
