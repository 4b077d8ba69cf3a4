import { Elysia } from "elysia";
import { unauthorized } from "./errors.ts";
import { isValidSignature, secretsEqual } from "./hmac-signature.ts";
import { assertWellFormed, rawBodyOf } from "./raw-body.ts";

export interface ProviderAuthOptions {
  readonly token: string;
  /** When unset, only the bearer token is accepted. */
  readonly hmacSecret: string | undefined;
  /**
   * Real time in ms. Signatures are checked against the wall clock, never the simulated one:
   * moving `/__sim/clock` must not lock out callers that sign with the real time.
   */
  readonly wallTime: () => number;
}

function hasValidBearer(header: string | null, token: string): boolean {
  const given = header ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
  return given !== undefined && secretsEqual(given, token);
}

async function isAuthorized(request: Request, options: ProviderAuthOptions): Promise<boolean> {
  if (hasValidBearer(request.headers.get("authorization"), options.token)) return true;
  if (options.hmacSecret === undefined) return false;
  const url = new URL(request.url);
  return isValidSignature(
    {
      timestamp: request.headers.get("x-marketplace-timestamp"),
      signature: request.headers.get("x-marketplace-signature"),
      method: request.method,
      target: `${url.pathname}${url.search}`,
      body: rawBodyOf(request),
    },
    options.hmacSecret,
    Math.floor(options.wallTime() / 1000),
  );
}

/**
 * The one request check in front of every `/api/marketplace/*` route: a bearer token or an HMAC
 * signature. It runs at transform, before schema validation, so an unauthenticated caller learns
 * nothing about the body; the 401 never says which part failed.
 */
export function createProviderAuth(options: ProviderAuthOptions) {
  return new Elysia().onTransform({ as: "scoped" }, async ({ request, body }) => {
    if (!(await isAuthorized(request, options))) throw unauthorized();
    assertWellFormed(body);
  });
}
