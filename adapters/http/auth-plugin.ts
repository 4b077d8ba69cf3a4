import { jwt } from "@elysiajs/jwt";
import { Elysia } from "elysia";
import type { AccountStates } from "../../application/identity/ports.ts";
import { checkSession, type KeptSession } from "../../domain/identity/account.ts";
import { type ApiKey, isApiKeySecret } from "../../domain/identity/api-key.ts";
import {
  AccountDisabled,
  ApiKeyNotAllowed,
  ApiKeyScopeMissing,
  AuthenticationRequired,
  RoleForbidden,
} from "../../domain/identity/errors.ts";
import type { Role } from "../../domain/identity/user.ts";
import { apiKeyScopeFor } from "./api-key-scopes.ts";

export interface Principal {
  /** The account's id, or the API key's when a key authenticated the request. */
  readonly userId: string;
  readonly role: Role;
  /** The token's session, which a password change keeps signed in; none on tokens issued before sessions had ids. */
  readonly session: KeptSession | undefined;
  /** An API key acted, not a person signed in: some answers show it less (a license's key). */
  readonly apiKey: boolean;
}

export interface AuthOptions {
  readonly secret: string;
  readonly issuer: string;
  readonly ttlSeconds: number;
  /** Where a token's role and account state are read from. */
  readonly accounts: AccountStates;
  /** Which live API key a `mk_…` secret is; without it, keys are not accepted. */
  readonly apiKeys?: (secret: string) => Promise<ApiKey | undefined>;
}

const CLOCK_TOLERANCE_SECONDS = 30;
const ROLES: readonly string[] = ["customer", "admin"] satisfies Role[];

type Jwt = { verify(token: string, options: object): Promise<false | Record<string, unknown>> };

const jwtPlugin = (options: AuthOptions) =>
  jwt({ name: "jwt", secret: options.secret, alg: "HS256", iss: options.issuer, exp: `${options.ttlSeconds}s` });

/** What a token must have to be ours: HS256, `exp`, `iss` and `sub`, within 30 s of clock skew. */
const verifyToken = (verifier: Jwt, token: string, options: AuthOptions) =>
  verifier.verify(token, {
    algorithms: ["HS256"],
    issuer: options.issuer,
    requiredClaims: ["exp", "iss", "sub"],
    clockTolerance: CLOCK_TOLERANCE_SECONDS,
  });

/** Tokens issued before versions existed carry none: they count as version 0 until a log-out-everywhere. */
function tokenVersion(claim: unknown): number | undefined {
  if (claim === undefined) return 0;
  return Number.isSafeInteger(claim) && (claim as number) >= 0 ? (claim as number) : undefined;
}

function bearerToken(header: string | undefined): string | undefined {
  const match = header ? /^Bearer ([A-Za-z0-9_\-.]+)$/.exec(header) : null;
  return match?.[1];
}

/**
 * JWT issuing and verification plus the `auth` macro: `{ auth: "admin" }` or
 * `{ auth: ["customer", "admin"] }` on a route resolves `principal` or answers 401/403. A bearer
 * credential starting `mk_` is an API key instead, checked against the route's scope.
 * Verification pins HS256, requires `exp`, `iss` and `sub`, and allows 30 s of clock skew.
 * The token only names the account: the role that is checked, whether the account still exists
 * and is enabled, and whether the token's version is current come from `accounts`, so a demotion,
 * a disable or a log-out-everywhere is not outlived by the tokens issued before it.
 * It runs at transform, before schema validation, so an anonymous caller learns nothing about a
 * route's body; it reads the raw request because a route's header schema strips other headers.
 */
export function createAuth(options: AuthOptions) {
  const { accounts } = options;
  const principals = new WeakMap<Request, Principal>();
  /**
   * An API key acts on admin routes only, each within the scope its path and method need
   * (api-key-scopes.ts); an unknown, revoked or expired key is a 401 like a bad token.
   */
  const keyPrincipal = async (secret: string, roles: readonly Role[], request: Request): Promise<Principal> => {
    const key = options.apiKeys ? await options.apiKeys(secret) : undefined;
    if (!key) throw new AuthenticationRequired();
    const scope = roles.includes("admin") ? apiKeyScopeFor(request.method, new URL(request.url).pathname) : undefined;
    if (!scope) throw new ApiKeyNotAllowed();
    if (!key.scopes.includes(scope)) throw new ApiKeyScopeMissing(scope);
    return { userId: key.id, role: "admin", session: undefined, apiKey: true };
  };
  /** Who the request's bearer credential names, checked against `roles`; throws 401/403 otherwise. */
  const authenticate = async (jwt: Jwt, request: Request, roles: readonly Role[]): Promise<Principal> => {
    const token = bearerToken(request.headers.get("authorization") ?? undefined);
    if (!token) throw new AuthenticationRequired();
    if (isApiKeySecret(token)) return keyPrincipal(token, roles, request);
    const claims = await verifyToken(jwt, token, options);
    // A role claim outside the known roles was never issued here, though the database decides the role.
    if (!claims || typeof claims.sub !== "string" || typeof claims.role !== "string" || !ROLES.includes(claims.role)) {
      throw new AuthenticationRequired();
    }
    const version = tokenVersion(claims.ver);
    if (version === undefined) throw new AuthenticationRequired();
    const sessionId = typeof claims.sid === "string" ? claims.sid : undefined;
    const session = checkSession(await accounts.find(claims.sub), version, sessionId);
    if (session.outcome === "disabled") throw new AccountDisabled();
    if (session.outcome === "revoked") throw new AuthenticationRequired();
    if (!roles.includes(session.role)) throw new RoleForbidden();
    return {
      userId: claims.sub,
      role: session.role,
      session: sessionId === undefined ? undefined : { id: sessionId, version },
      apiKey: false,
    };
  };
  const rolesOf = (allowed: Role | readonly Role[]): readonly Role[] =>
    typeof allowed === "string" ? [allowed] : allowed;
  return new Elysia({ name: "auth" }).use(jwtPlugin(options)).macro({
    auth: (allowed: Role | readonly Role[]) => ({
      async transform({ jwt, request }) {
        principals.set(request, await authenticate(jwt as Jwt, request, rolesOf(allowed)));
      },
      resolve({ request }) {
        const principal = principals.get(request);
        if (!principal) throw new AuthenticationRequired();
        return { principal };
      },
    }),
    /**
     * Like `auth`, for a route anyone may call: without an `Authorization` header `principal` is
     * undefined; with one, it must be good (a bad token is a 401, never a fall back to anonymous).
     */
    optionalAuth: (allowed: Role | readonly Role[]) => ({
      async transform({ jwt, request }) {
        if (!request.headers.has("authorization")) return;
        principals.set(request, await authenticate(jwt as Jwt, request, rolesOf(allowed)));
      },
      resolve({ request }) {
        return { principal: principals.get(request) };
      },
    }),
  });
}

/**
 * Whose Idempotency-Keys a request uses: `user:<id>` for a token whose signature, issuer and expiry
 * hold, `key:<id>` for a live API key, `anonymous` without `Authorization`; undefined for any other
 * credential, which the route refuses. Roles, scopes and account state are the route's to check.
 */
export function createCallerIdentifier(options: AuthOptions) {
  const verifier = (jwtPlugin(options).decorator as unknown as { jwt: Jwt }).jwt;
  return async (request: Request): Promise<string | undefined> => {
    const header = request.headers.get("authorization");
    if (header === null) return "anonymous";
    const token = bearerToken(header);
    if (!token) return undefined;
    if (isApiKeySecret(token)) {
      const key = options.apiKeys ? await options.apiKeys(token) : undefined;
      return key ? `key:${key.id}` : undefined;
    }
    const claims = await verifyToken(verifier, token, options);
    return claims && typeof claims.sub === "string" ? `user:${claims.sub}` : undefined;
  };
}
