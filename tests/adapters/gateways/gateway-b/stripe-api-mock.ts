import { afterAll, afterEach, beforeAll } from "bun:test";
import { HttpResponse, http, type JsonBodyType } from "msw";
import { setupServer } from "msw/node";
import type { UpstreamError } from "../../../../application/shared/errors.ts";

export const STRIPE_BASE = "https://api.stripe.test";

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: Headers;
  readonly raw: string;
  /** The decoded form, in order, as `[key, value]` pairs. */
  readonly form: [string, string][];
}

type Method = "get" | "post" | "delete";
type Reply = JsonBodyType | (() => Response | Promise<Response>);

/** An msw server for one test file that refuses any request no test expected. */
export function mockStripeApi() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());

  /** Answers `method path` (relative to the base URL) and records every request it gets. */
  function answer(method: Method, path: string, reply: Reply, status = 200, base = STRIPE_BASE): RecordedRequest[] {
    const recorded: RecordedRequest[] = [];
    server.use(
      http[method](`${base}${path}`, async ({ request }) => {
        const url = new URL(request.url);
        const raw = await request.text();
        recorded.push({
          method: request.method,
          path: url.pathname,
          query: url.searchParams,
          headers: request.headers,
          raw,
          form: [...new URLSearchParams(raw)],
        });
        return typeof reply === "function" ? reply() : HttpResponse.json(reply, { status });
      }),
    );
    return recorded;
  }

  return { server, answer };
}

export const stripeError = (type: string, message: string, code?: string) => ({
  error: { type, message, ...(code ? { code } : {}) },
});

export async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  try {
    await promise;
  } catch (error) {
    return error as UpstreamError;
  }
  throw new Error("expected the call to fail");
}
