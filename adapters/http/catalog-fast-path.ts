import { type AccessEntry, durationSince, type RequestObserver, requestIdFor } from "../../kit/request-context.ts";
import type { PublicCatalogAnswers } from "./public-catalog-routes.ts";
import { answerResponse, type PreparedAnswer } from "./response-cache.ts";

type Fetch = (request: Request, server?: unknown) => Response | Promise<Response>;

const LIST = "/api/products";
/** The template Elysia names the product route by, so both paths label it alike. */
const PRODUCT_ROUTE = "/api/products/:slug";
/** Slugs the fast path serves: nothing to decode, no NUL, within the route's 100 characters. */
const PLAIN_SLUG = /^[A-Za-z0-9_~.-]{1,100}$/;

/**
 * The public catalog's cached answers served in front of Elysia: `GET`/`HEAD /api/products` (no
 * query string) and `/api/products/{slug}` when the answer is already in the cache. Anything else
 * (another method or path, any query string, a slug with an escape, a path a rate limit covers, a
 * cache miss) goes to `next`, the full Elysia app, which computes the answer and fills the cache.
 * A fast answer carries what the Elysia route sends (the same body, content type, ETag,
 * Cache-Control and 304 handling, from the same `answerResponse`), the request id the request
 * context would give, and the same access-log line. Only the per-request work that a cached answer
 * does not need is skipped: routing, hooks, query parsing and validation, the header merge.
 *
 * Kept for `catalog_ratio`: 0.61 with it vs 0.27 without (0.29..0.87 and 0.15..0.34 over nine
 * rounds; 25.7 vs 60.0 µs of CPU per cached list answer), measured by `npm run bench`'s catalog
 * figure, both builds side by side (bench/compare.ts), on 2026-11-28. See
 * docs/decisions/catalog-fast-path.md.
 */
export function createCatalogFastPath(options: {
  readonly answers: PublicCatalogAnswers;
  readonly logAccess: (entry: AccessEntry) => void;
  /** The rate-limit group of a path, as the limiter sees it; a limited path takes the full pipeline. */
  readonly rateLimitGroupOf: (path: string) => string | undefined;
  readonly observe?: RequestObserver;
  readonly next: Fetch;
}): Fetch {
  const { answers, logAccess, rateLimitGroupOf, observe, next } = options;
  return (request, server) => {
    const startedAt = performance.now();
    const method = request.method;
    if (method !== "GET" && method !== "HEAD") return next(request, server);
    const url = request.url;
    const start = url.indexOf("/", url.indexOf("//") + 2);
    if (start < 0 || !url.startsWith(LIST, start)) return next(request, server);
    const path = url.slice(start);
    let answer: PreparedAnswer | undefined;
    let route = LIST;
    if (path.length === LIST.length) answer = answers.cachedFirstPage();
    else if (path.charCodeAt(LIST.length) === 47 /* "/" */) {
      const slug = path.slice(LIST.length + 1);
      if (PLAIN_SLUG.test(slug)) answer = answers.cachedProduct(slug);
      route = PRODUCT_ROUTE;
    }
    if (answer === undefined || rateLimitGroupOf(path) !== undefined) return next(request, server);
    const id = requestIdFor(request.headers.get("x-request-id"));
    const response = answerResponse(answer, request.headers.get("if-none-match"), id);
    const durationMs = durationSince(startedAt);
    logAccess({ req_id: id, method, path, status: response.status, duration_ms: durationMs });
    observe?.({ method, route, status: response.status, seconds: durationMs / 1000 });
    return response;
  };
}
