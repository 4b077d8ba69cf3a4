type Fetch = (request: Request, server?: unknown) => Response | Promise<Response>;

/** Paths whose every answer is a person's own data or a credential, whoever asks. */
const PRIVATE_PATHS = ["/api/me", "/api/licenses", "/api/admin/", "/api/auth/"];

/**
 * Whether no cache, shared or the browser's own, may keep an answer: anything asked with a
 * bearer token (valid or not), the signed-in account, licenses (keys and download links), every
 * admin answer and the sign-in and registration answers (they carry a token). The public catalog's
 * cached answers never reach here (catalog-fast-path.ts): they are the same for everyone.
 */
export function isPrivateAnswer(request: Request): boolean {
  const url = request.url;
  const path = url.slice(url.indexOf("/", url.indexOf("//") + 2));
  if (!path.startsWith("/api/")) return false;
  if (request.headers.has("authorization")) return true;
  return PRIVATE_PATHS.some((prefix) => path.startsWith(prefix));
}

function noStore(response: Response): Response {
  try {
    response.headers.set("cache-control", "no-store");
    return response;
  } catch {
    // A response built with immutable headers (a redirect) is copied with the header added.
    const headers = new Headers(response.headers);
    headers.set("cache-control", "no-store");
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

/** `next` with `Cache-Control: no-store` on every private answer, errors included: one place for all routes. */
export function withNoStore(next: Fetch): Fetch {
  return (request, server) => {
    if (!isPrivateAnswer(request)) return next(request, server);
    const response = next(request, server);
    return response instanceof Promise ? response.then(noStore) : noStore(response);
  };
}
