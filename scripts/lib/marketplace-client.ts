/**
 * The marketplace's API through the client generated from openapi/marketplace.json: paths, bodies
 * and answers are the document's, so code written against a wrong document does not type-check.
 */
import createClient, { type Middleware } from "openapi-fetch";
import type { paths } from "../../openapi/generated/marketplace.ts";

/** A call that failed; its message is safe to print. */
export class HttpFailure extends Error {}

/**
 * Clients of the marketplace at `baseUrl`. Any non-2xx answer throws an `HttpFailure` naming the
 * method, path, status and body, with every value in `secrets` (read at failure time) blanked out.
 */
export function marketplaceClients(options: { readonly baseUrl: string; readonly secrets: readonly string[] }) {
  function failure(method: string, url: string | URL, status: number, body: string): HttpFailure {
    const shown = options.secrets.reduce((text, secret) => text.replaceAll(secret, "[redacted]"), body);
    const { pathname, search } = new URL(url);
    return new HttpFailure(`${method} ${pathname}${search} failed: ${status} ${shown.slice(0, 2000)}`);
  }
  const failOnError: Middleware = {
    async onResponse({ request, response }) {
      if (!response.ok) throw failure(request.method, request.url, response.status, await response.clone().text());
    },
  };
  return {
    failure,
    /** A client sending `token` as its bearer token, or anonymous. */
    client(token?: string) {
      const client = createClient<paths>({
        baseUrl: options.baseUrl,
        ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
      });
      client.use(failOnError);
      return client;
    },
  };
}

/** The answer of a call that succeeded (a failed one has already thrown). */
export const answer = async <T>(call: Promise<{ data?: T }>) => (await call).data as T;
