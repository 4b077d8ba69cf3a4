import { jwt } from "@elysiajs/jwt";
import { Elysia } from "elysia";
import type { Role } from "../../domain/identity/user.ts";
import { DomainError } from "../../domain/shared/domain-error.ts";

export interface Principal {
  readonly userId: string;
  readonly role: Role;
}

export interface AuthOptions {
  readonly secret: string;
  readonly issuer: string;
  readonly ttlSeconds: number;
}

export class AuthenticationRequired extends DomainError {
  readonly code = "AUTHENTICATION_REQUIRED";
  readonly category = "unauthenticated";

  constructor() {
    super("A valid bearer token is required.");
  }
}

export class RoleForbidden extends DomainError {
  readonly code = "FORBIDDEN_ROLE";
  readonly category = "forbidden";

  constructor() {
    super("This action is not allowed for your role.");
  }
}

const CLOCK_TOLERANCE_SECONDS = 30;
const ROLES: readonly string[] = ["customer", "admin"] satisfies Role[];

function bearerToken(header: string | undefined): string | undefined {
  const match = header ? /^Bearer ([A-Za-z0-9_\-.]+)$/.exec(header) : null;
  return match?.[1];
}

/**
 * JWT issuing and verification plus the `auth` macro: `{ auth: "admin" }` or
 * `{ auth: ["customer", "admin"] }` on a route resolves `principal` or answers 401/403.
 * Verification pins HS256, requires `exp`, `iss` and `sub`, and allows 30 s of clock skew.
 * It runs at transform, before schema validation, so an anonymous caller learns nothing about a
 * route's body; it reads the raw request because a route's header schema strips other headers.
 */
export function createAuth(options: AuthOptions) {
  const principals = new WeakMap<Request, Principal>();
  return new Elysia({ name: "auth" })
    .use(jwt({ name: "jwt", secret: options.secret, alg: "HS256", iss: options.issuer, exp: `${options.ttlSeconds}s` }))
    .macro({
      auth: (allowed: Role | readonly Role[]) => ({
        async transform({ jwt, request }) {
          const token = bearerToken(request.headers.get("authorization") ?? undefined);
          if (!token) throw new AuthenticationRequired();
          const claims = await jwt.verify(token, {
            algorithms: ["HS256"],
            issuer: options.issuer,
            requiredClaims: ["exp", "iss", "sub"],
            clockTolerance: CLOCK_TOLERANCE_SECONDS,
          });
          if (!claims || typeof claims.sub !== "string" || typeof claims.role !== "string") {
            throw new AuthenticationRequired();
          }
          if (!ROLES.includes(claims.role)) throw new AuthenticationRequired();
          const principal: Principal = { userId: claims.sub, role: claims.role as Role };
          const roles: readonly Role[] = typeof allowed === "string" ? [allowed] : allowed;
          if (!roles.includes(principal.role)) throw new RoleForbidden();
          principals.set(request, principal);
        },
        resolve({ request }) {
          const principal = principals.get(request);
          if (!principal) throw new AuthenticationRequired();
          return { principal };
        },
      }),
    });
}
