import { Elysia } from "elysia";
import type { Logger } from "./logger.ts";
import { HttpProblem } from "./problem.ts";
import { createUrlRedactor } from "./url-redaction.ts";

interface RequestMeta {
  readonly id: string;
  readonly startedAt: number;
}

const metas = new WeakMap<Request, RequestMeta>();
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id of a request: the caller's `X-Request-Id` when it is sane, else a fresh UUID. */
export function requestIdOf(request: Request): string {
  return metas.get(request)?.id ?? "unknown";
}

/**
 * Gives every request an id (echoed in `X-Request-Id`) and writes one access-log line per
 * response, errors included, with the values that grant access hidden from its target.
 */
export function createRequestContext(deps: {
  logger: Logger;
  accessLogger?: Logger;
  redactTarget?: (target: string) => string;
}) {
  const access = deps.accessLogger ?? deps.logger;
  const redactTarget = deps.redactTarget ?? createUrlRedactor(() => []);
  return new Elysia({ name: "request-context" })
    .onRequest(({ request, set }) => {
      const incoming = request.headers.get("x-request-id");
      const id = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
      metas.set(request, { id, startedAt: performance.now() });
      set.headers["x-request-id"] = id;
      // PostgreSQL text cannot hold U+0000: a NUL in a path or query never reaches a query.
      if (/%00/i.test(request.url)) {
        throw new HttpProblem(400, "NUL_CHARACTER", "The URL must not contain the NUL character (%00).");
      }
    })
    .onAfterResponse({ as: "global" }, ({ request, set }) => {
      const meta = metas.get(request);
      const url = request.url;
      const target = url.slice(url.indexOf("/", url.indexOf("//") + 2));
      access.info(
        {
          req_id: meta?.id,
          method: request.method,
          path: redactTarget(target),
          status: typeof set.status === "number" ? set.status : 200,
          duration_ms: meta ? Math.round((performance.now() - meta.startedAt) * 100) / 100 : undefined,
        },
        "request",
      );
    });
}
